import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { t, type Lang } from '../i18n/index.js';
import { FieldErrors } from './layout.js';
import { richTextEditor } from './rich-text.js';

/** Form controls of the dashboard: a label, the control, its help and errors, linked for screen readers. */
interface ControlProps {
  name: string;
  label: string;
  value?: string;
  errors?: string[];
  help?: string;
  required?: boolean;
}

function describedBy(id: string, props: ControlProps) {
  return [props.help ? `${id}_help` : '', props.errors?.length ? `${id}_errors` : ''].filter(Boolean).join(' ') || undefined;
}

function Wrap({ id, props, children, check }: { id: string; props: ControlProps; children: ComponentChildren; check?: boolean }) {
  return (
    <div class={`field${check ? ' check' : ''}${props.errors?.length ? ' has-error' : ''}`}>
      {!check && <label for={id}>{props.label}{props.required ? ' *' : ''}</label>}
      {children}
      {check && <label for={id}>{props.label}</label>}
      {props.help && (
        <p class="help" id={`${id}_help`}>
          {props.help}
        </p>
      )}
      <FieldErrors id={`${id}_errors`} errors={props.errors} />
    </div>
  );
}

export function Input(props: ControlProps & { type?: 'text' | 'email' | 'password' | 'number' | 'datetime-local' | 'search' | 'url' | 'file'; maxLength?: number; step?: string; accept?: string }) {
  const id = `id_${props.name}`;
  return (
    <Wrap id={id} props={props}>
      <input
        {...({
          id,
          name: props.name,
          type: props.type ?? 'text',
          value: props.type === 'file' ? undefined : (props.value ?? ''),
          accept: props.accept,
          maxLength: props.maxLength,
          step: props.step,
          required: props.required,
          'aria-invalid': props.errors?.length ? 'true' : undefined,
          'aria-describedby': describedBy(id, props),
        } as InputHTMLAttributes<HTMLInputElement>)}
      />
    </Wrap>
  );
}

/** The script a page with a `richText` TextArea loads (`/static/richtext.js`; without it the textarea takes HTML). */
export const RICH_TEXT_SCRIPTS = ['/static/richtext.js'];

/** A textarea; `richText` (the page's language) makes it the rich-text editor, as on the idea form (issue 22.1). */
export function TextArea(props: ControlProps & { rows?: number; maxLength?: number; richText?: Lang }) {
  const id = `id_${props.name}`;
  return (
    <Wrap id={id} props={props}>
      <textarea
        id={id}
        name={props.name}
        rows={props.rows ?? 4}
        maxLength={props.maxLength}
        required={props.required}
        aria-invalid={props.errors?.length ? 'true' : undefined}
        aria-describedby={describedBy(id, props)}
        {...(props.richText ? richTextEditor(props.richText) : {})}
      >
        {props.value ?? ''}
      </textarea>
    </Wrap>
  );
}

export function Checkbox(props: ControlProps & { checked: boolean }) {
  const id = `id_${props.name}`;
  return (
    <Wrap id={id} props={props} check>
      <input type="checkbox" id={id} name={props.name} checked={props.checked} aria-describedby={describedBy(id, props)} />{' '}
    </Wrap>
  );
}

type Choices = ControlProps & { choices: { value: string; label: string }[] };

/** A fieldset of radio buttons or checkboxes sharing one name, with its help and errors. */
function ChoiceGroup(props: Choices & { type: 'radio' | 'checkbox'; checked: (value: string) => boolean }) {
  const id = `id_${props.name}`;
  return (
    <fieldset class={`field${props.errors?.length ? ' has-error' : ''}`} aria-describedby={describedBy(id, props)}>
      <legend>{props.label}</legend>
      {props.choices.map((choice, i) => (
        <div class="check">
          <input type={props.type} id={`${id}_${i}`} name={props.name} value={choice.value} checked={props.checked(choice.value)} />{' '}
          <label for={`${id}_${i}`}>{choice.label}</label>
        </div>
      ))}
      {props.help && (
        <p class="help" id={`${id}_help`}>
          {props.help}
        </p>
      )}
      <FieldErrors id={`${id}_errors`} errors={props.errors} />
    </fieldset>
  );
}

/** One choice of several (`value` is the chosen one). */
export const Radios = (props: Choices) => <ChoiceGroup {...props} type="radio" checked={(value) => props.value === value} />;

/** A group of checkboxes sharing one name (the form body repeats it); `values` are the checked ones. */
export const Checkboxes = (props: Choices & { values: readonly string[] }) => <ChoiceGroup {...props} type="checkbox" checked={(value) => props.values.includes(value)} />;

/** The three access modes with the long labels of §A5.1. */
export const accessChoices = (lang: Lang) => [
  { value: 'PUBLIC', label: t(lang, 'Public: everybody can see the project and take part.') },
  { value: 'SEMIPUBLIC', label: t(lang, 'Semi-public: everybody can see the project; only invited people can take part.') },
  { value: 'PRIVATE', label: t(lang, 'Private: only invited people can see the project and take part.') },
];

/** A choice from a list: label, select, help and errors. */
export function Select(props: ControlProps & { choices: { value: string; label: string }[] }) {
  const id = `id_${props.name}`;
  return (
    <Wrap id={id} props={props}>
      <select id={id} name={props.name} required={props.required} aria-invalid={props.errors?.length ? 'true' : undefined} aria-describedby={describedBy(id, props)}>
        {props.choices.map((choice) => (
          <option value={choice.value} selected={props.value === choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </Wrap>
  );
}

/** Help under the rich-text fields of the organisation's forms and the back-office. */
export const HTML_HELP = 'Rich text (HTML): paragraphs, headings, bold, italic, lists, links and images (each image needs an alt text).';
