import type { ComponentChildren } from 'preact';
import { type Lang, t } from '../../i18n/index.js';
import { Breadcrumbs } from '../../web/components.js';
import type { PageContext } from '../../web/context.js';
import { CsrfField, Layout } from '../../web/layout.js';
import { withNext } from '../../http/urls.js';
import { modulePath, projectPath } from '../../core/urls.js';
import type { ItemModule } from './items.js';

/**
 * The frames that the pages of a module type's items share (a debate's subjects, a prioritisation's
 * topics, a text review's chapters and paragraphs); what each item shows stays in its module type.
 */

type Link = { href: string; label: string };

/** An item page's breadcrumbs: organisation, project, module, and whatever lies between the module and the item (a paragraph's chapter). */
export function ModuleCrumbs({ lang, orgSlug, module, more = [] }: { lang: Lang; orgSlug: string; module: ItemModule; more?: Link[] }) {
  const items = [{ href: `/${orgSlug}/`, label: module.organisationName }, { href: projectPath(orgSlug, module.projectSlug), label: module.projectName }, { href: modulePath(orgSlug, module.slug), label: module.name }];
  return <Breadcrumbs lang={lang} items={[...items, ...more]} />;
}

/** The item's own page: breadcrumbs, title, what the item shows, its edit and delete links (for who may change it), its discussion. */
export function ItemPageFrame(props: {
  page: PageContext;
  orgSlug: string;
  module: ItemModule;
  title: string;
  crumbs?: Link[];
  change?: { edit: string; remove: string } | null;
  thread: ComponentChildren;
  children: ComponentChildren;
}) {
  const { lang } = props.page;
  return (
    <Layout page={props.page} title={props.title}>
      <ModuleCrumbs lang={lang} orgSlug={props.orgSlug} module={props.module} more={props.crumbs} />
      <h1>{props.title}</h1>
      {props.children}
      {props.change && (
        <p>
          <a href={props.change.edit}>{t(lang, 'Edit')}</a> · <a href={props.change.remove}>{t(lang, 'Delete')}</a>
        </p>
      )}
      {props.thread}
    </Layout>
  );
}

/** Adding or editing an item: breadcrumbs, title, the alert when the form failed, the form's fields, "Save" and "Cancel". */
export function ItemFormFrame(props: {
  page: PageContext;
  data: { orgSlug: string; module: ItemModule; title: string; action: string; cancel: string; errors: object };
  scripts?: string[];
  children: ComponentChildren;
}) {
  const { page, data } = props;
  const { lang } = page;
  return (
    <Layout page={page} title={data.title} scripts={props.scripts}>
      <ModuleCrumbs lang={lang} orgSlug={data.orgSlug} module={data.module} />
      <h1>{data.title}</h1>
      {Object.keys(data.errors).length > 0 && (
        <div class="alert alert-error" role="alert">
          {t(lang, 'An error occurred. Please check the data you entered.')}
        </div>
      )}
      <form method="post" action={data.action}>
        <CsrfField page={page} />
        {props.children}
        <button type="submit">{t(lang, 'Save')}</button> <a href={data.cancel}>{t(lang, 'Cancel')}</a>
      </form>
    </Layout>
  );
}

/** Asks before an item is deleted; `question` says what goes with it. */
export function ItemDeletePage({ page, title, question, action, cancel }: { page: PageContext; title: string; question: string; action: string; cancel: string }) {
  const { lang } = page;
  return (
    <Layout page={page} title={title}>
      <h1>{title}</h1>
      <p>{question}</p>
      <form method="post" action={action}>
        <CsrfField page={page} />
        <button type="submit">{t(lang, 'Delete')}</button> <a href={cancel}>{t(lang, 'Cancel')}</a>
      </form>
    </Layout>
  );
}

/** The "Add …" button above a list or below a dashboard panel. */
export function AddButton({ href, label }: { href: string; label: string }) {
  return (
    <p>
      <a class="btn" href={href}>
        {label}
      </a>
    </p>
  );
}

interface ItemPanelData {
  /** The panel's heading id and title. */
  id: string;
  title: string;
  /** What an empty panel says (why the module needs items). */
  empty: string;
  /** Each item's edit page, its name and a note behind it (its counts). */
  items: { edit: string; name: string; note: string }[];
  create: { href: string; label: string };
  /** The dashboard page that the edit and create pages return to. */
  back: string;
}

/** A dashboard component listing a module's items with their edit pages, and the way to add one. */
export function ItemPanel({ data }: { data: ItemPanelData }) {
  return (
    <section aria-labelledby={data.id}>
      <h2 id={data.id}>{data.title}</h2>
      {data.items.length === 0 ? (
        <p>{data.empty}</p>
      ) : (
        <ul>
          {data.items.map((item) => (
            <li>
              <a href={withNext(item.edit, data.back)}>{item.name}</a> ({item.note})
            </li>
          ))}
        </ul>
      )}
      <AddButton href={withNext(data.create.href, data.back)} label={data.create.label} />
    </section>
  );
}

interface ItemFilterData {
  /** The names' prefix: `subject` gives the field `subject_search`, the id `id_subject_search` and the anchor `#subjects-heading`. */
  prefix: string;
  label: string;
  path: string;
  search: string;
  maxLength: number;
  ordering: string;
  orderings: readonly string[];
  orderingLabels: Record<string, string>;
}

/** A module page's list filter: the search, any filters of the module type's own (`children`), the ordering. */
export function ItemFilter({ lang, data, children }: { lang: Lang; data: ItemFilterData; children?: ComponentChildren }) {
  const { prefix } = data;
  return (
    <form method="get" action={`${data.path}#${prefix}s-heading`} class="filter-bar" role="search" aria-label={data.label}>
      <div class="field">
        <label for={`id_${prefix}_search`}>{t(lang, 'Search')}</label>
        <input id={`id_${prefix}_search`} type="search" name={`${prefix}_search`} value={data.search} maxLength={data.maxLength} />
      </div>
      {children}
      <div class="field">
        <label for={`id_${prefix}_ordering`}>{t(lang, 'Ordering')}</label>
        <select id={`id_${prefix}_ordering`} name={`${prefix}_ordering`}>
          {data.orderings.map((o) => (
            <option value={o} selected={data.ordering === o}>
              {t(lang, data.orderingLabels[o])}
            </option>
          ))}
        </select>
      </div>
      <button type="submit">{t(lang, 'Filter')}</button>
    </form>
  );
}
