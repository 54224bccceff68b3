import { type Lang, LANGUAGES, t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { DataTable, PostButton } from '../../web/components.js';
import { Checkbox, HTML_HELP, Input, Select, TextArea } from '../../web/controls.js';
import { CsrfField, Notice } from '../../web/layout.js';
import type { ContentPage } from '../../core/legal/content.js';
import { CONTENT_PAGE_LIMITS, PLATFORM_SETTINGS_LIMITS } from '../../core/legal/rules.js';
import { contentPagePath } from '../../core/legal/texts.js';
import { Frame } from './views.js';

/* The back-office's content pages and start page (a+ CMS). */

const LANGUAGE_NAMES: Record<Lang, string> = { en: 'English', de: 'Deutsch' };
const PLACEMENTS = { footer: 'In the footer', menu: 'In the menu', none: 'Not linked (only by its address)' } as const;
type Errors = Record<string, string[]>;

export function ContentPagesPage({ page, pages, notice }: { page: PageContext; pages: ContentPage[]; notice: string | null }) {
  const { lang } = page;
  return (
    <Frame page={page} title={t(lang, 'Content pages')} current="content" notice={notice}>
      <p>
        <a class="btn" href="/backoffice/content/create/">
          {t(lang, 'Add a page')}
        </a>{' '}
        <a class="btn btn-secondary" href="/backoffice/start-page/">
          {t(lang, 'Edit the start page')}
        </a>{' '}
        <a class="btn btn-secondary" href="/backoffice/start-page/figures/">
          {t(lang, 'Figures of the start page')}
        </a>{' '}
        <a class="btn btn-secondary" href="/backoffice/platform/">
          {t(lang, 'Edit the footer’s address and links')}
        </a>
      </p>
      {pages.length ? (
        <DataTable headers={[t(lang, 'Title'), t(lang, 'Address'), t(lang, 'Linked'), t(lang, 'Actions')]}>
          {pages.map((p) => (
            <tr>
              <td>
                <a href={`/backoffice/content/${p.id}/`}>{p.title[lang] || p.title.en || p.title.de}</a>
              </td>
              <td>
                <a href={contentPagePath(p.slug)}>{contentPagePath(p.slug)}</a>
              </td>
              <td>{t(lang, PLACEMENTS[p.placement])}</td>
              <td>
                <PostButton page={page} action={`/backoffice/content/${p.id}/delete/`} label={t(lang, 'Delete')} aria={t(lang, 'Delete %(name)s', { name: p.slug })} />
              </td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <p>{t(lang, 'There are no content pages yet.')}</p>
      )}
    </Frame>
  );
}

export function ContentPageForm({ page, action, values, errors }: { page: PageContext; action: string; values: Record<string, string>; errors: Errors }) {
  const { lang } = page;
  const tr = (list: string[] | undefined) => list?.map((e) => t(lang, e));
  const placements = (Object.keys(PLACEMENTS) as (keyof typeof PLACEMENTS)[]).map((value) => ({ value, label: t(lang, PLACEMENTS[value]) }));
  return (
    <Frame page={page} title={values.id ? t(lang, 'Edit content page') : t(lang, 'Add a page')} current="content">
      <form method="post" action={action} noValidate>
        <CsrfField page={page} />
        {Object.keys(errors).length > 0 && <Notice>{t(lang, 'Please correct the errors below.')}</Notice>}
        <Input name="slug" label={t(lang, 'Address')} value={values.slug} required maxLength={CONTENT_PAGE_LIMITS.slug.maxChars} errors={tr(errors.slug)} help={t(lang, 'The page is at /pages/<address>/: lower-case letters, digits and hyphens.')} />
        {LANGUAGES.map((l) => (
          <Input name={`title_${l}`} label={`${t(lang, 'Title')} (${LANGUAGE_NAMES[l]})`} value={values[`title_${l}`]} maxLength={CONTENT_PAGE_LIMITS.title.maxChars} errors={tr(errors[`title_${l}`])} />
        ))}
        {LANGUAGES.map((l) => (
          <TextArea name={`body_${l}`} label={`${t(lang, 'Text')} (${LANGUAGE_NAMES[l]})`} value={values[`body_${l}`]} rows={14} richText={lang} errors={tr(errors[`body_${l}`])} help={t(lang, HTML_HELP)} />
        ))}
        <Select name="placement" label={t(lang, 'Linked')} value={values.placement || 'footer'} choices={placements} errors={tr(errors.placement)} />
        <Input name="weight" type="number" label={t(lang, 'Position')} value={values.weight} errors={tr(errors.weight)} help={t(lang, 'Links are shown in ascending order of position.')} />
        <button type="submit">{t(lang, 'Save')}</button> <a href="/backoffice/content/">{t(lang, 'Cancel')}</a>
      </form>
    </Frame>
  );
}

export function StartPageForm({ page, values, image, errors }: { page: PageContext; values: Record<string, string>; image: string | null; errors: Errors }) {
  const { lang } = page;
  const tr = (list: string[] | undefined) => list?.map((e) => t(lang, e));
  return (
    <Frame page={page} title={t(lang, 'Start page')} current="content">
      <form method="post" action="/backoffice/start-page/" enctype="multipart/form-data" noValidate>
        <CsrfField page={page} />
        {Object.keys(errors).length > 0 && <Notice>{t(lang, 'Please correct the errors below.')}</Notice>}
        <p>{t(lang, 'Shown above the projects on the start page, in the reader’s language (else in the other).')}</p>
        {LANGUAGES.map((l) => (
          <Input name={`heading_${l}`} label={`${t(lang, 'Heading')} (${LANGUAGE_NAMES[l]})`} value={values[`heading_${l}`]} maxLength={CONTENT_PAGE_LIMITS.title.maxChars} errors={tr(errors[`heading_${l}`])} />
        ))}
        {LANGUAGES.map((l) => (
          <TextArea name={`intro_${l}`} label={`${t(lang, 'Introduction')} (${LANGUAGE_NAMES[l]})`} value={values[`intro_${l}`]} rows={8} richText={lang} errors={tr(errors[`intro_${l}`])} help={t(lang, HTML_HELP)} />
        ))}
        {image && (
          <div>
            <img class="idea-image-preview" src={`/media/${image}`} alt={t(lang, 'Current image')} />
            <Checkbox name="image_deleted" label={t(lang, 'Remove the image')} checked={values.image_deleted === 'on'} />
          </div>
        )}
        <Input name="image" type="file" accept="image/png,image/jpeg,image/gif" label={image ? t(lang, 'Replace the image') : t(lang, 'Upload an image')} errors={tr(errors.image)} help={t(lang, 'PNG, JPEG or GIF, at most 5 MB.')} />
        {LANGUAGES.map((l) => (
          <Input name={`image_alt_${l}`} label={`${t(lang, 'Description of the image')} (${LANGUAGE_NAMES[l]})`} value={values[`image_alt_${l}`]} maxLength={CONTENT_PAGE_LIMITS.imageAlt.maxChars} errors={tr(errors[`image_alt_${l}`])} />
        ))}
        <button type="submit">{t(lang, 'Save')}</button>
      </form>
    </Frame>
  );
}

/** The platform's operator, address, contacts, social links and sharing text and picture (a+ OrganisationSettings, SocialMedia). */
export function PlatformSettingsForm({ page, values, image, errors }: { page: PageContext; values: Record<string, string>; image: string | null; errors: Errors }) {
  const { lang } = page;
  const tr = (list: string[] | undefined) => list?.map((e) => t(lang, e));
  const link = (name: 'facebook' | 'twitter' | 'github', label: string) => (
    <Input name={name} type="url" label={label} value={values[name]} maxLength={PLATFORM_SETTINGS_LIMITS.link.maxChars} errors={tr(errors[name])} help={t(lang, 'The full address, beginning with https://.')} />
  );
  return (
    <Frame page={page} title={t(lang, 'Footer: address and links')} current="content">
      <form method="post" action="/backoffice/platform/" enctype="multipart/form-data" noValidate>
        <CsrfField page={page} />
        {Object.keys(errors).length > 0 && <Notice>{t(lang, 'Please correct the errors below.')}</Notice>}
        <p>{t(lang, 'Shown in the footer of every page: who runs the platform, its postal address, its contacts and its social media.')}</p>
        <Input name="name" label={t(lang, 'Name of the platform')} value={values.name} maxLength={PLATFORM_SETTINGS_LIMITS.name.maxChars} errors={tr(errors.name)} help={t(lang, 'Labels the platform’s links in the footer; empty: Allmende.')} />
        <TextArea name="address" label={t(lang, 'Postal address')} value={values.address} rows={5} richText={lang} errors={tr(errors.address)} help={t(lang, HTML_HELP)} />
        <TextArea name="contacts" label={t(lang, 'Contacts')} value={values.contacts} rows={5} richText={lang} errors={tr(errors.contacts)} help={t(lang, HTML_HELP)} />
        {link('facebook', 'Facebook')}
        {link('twitter', 'X (Twitter)')}
        {link('github', 'GitHub')}
        {LANGUAGES.map((l) => (
          <TextArea name={`share_description_${l}`} label={`${t(lang, 'Description when a link is shared')} (${LANGUAGE_NAMES[l]})`} value={values[`share_description_${l}`]} rows={3} maxLength={PLATFORM_SETTINGS_LIMITS.shareDescription.maxChars} errors={tr(errors[`share_description_${l}`])} />
        ))}
        {image && (
          <div>
            <img class="idea-image-preview" src={`/media/${image}`} alt={t(lang, 'Current image')} />
            <Checkbox name="image_deleted" label={t(lang, 'Remove the image')} checked={values.image_deleted === 'on'} />
          </div>
        )}
        <Input name="image" type="file" accept="image/png,image/jpeg,image/gif" label={t(lang, 'Picture when a link is shared')} errors={tr(errors.image)} help={t(lang, 'PNG, JPEG or GIF, at most 5 MB.')} />
        <button type="submit">{t(lang, 'Save')}</button> <a href="/backoffice/content/">{t(lang, 'Cancel')}</a>
      </form>
    </Frame>
  );
}
