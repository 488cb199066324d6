// HTML forms of the pages (docs/protocol.md §7.3): POST to the resource's own URL, `_method` for what a form cannot send,
// `_back` for the page to return to; a form that broke a rule comes back filled in, each error beside its field.
import { escapeHtml } from './escape.ts';
import type { FormState, PageContext } from './representation.ts';

export interface FieldSpec {
  name: string;
  /** The visible label; every input has one (WCAG 1.3.1, 4.1.2). Hidden fields have none. */
  label?: string;
  type: 'text' | 'password' | 'textarea' | 'hidden' | 'number' | 'file' | 'search' | 'checkbox' | 'datetime-local';
  value?: string;
  /** Trusted attribute text written by the page code (required, minlength, autocomplete...), never user data. */
  attributes?: string;
}

export interface FormSpec {
  /** The resource's path, under the base path. */
  action: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  button: string;
  /** A prefix for the ids of this form's fields, unique on the page. */
  id: string;
  fields?: FieldSpec[];
  /** The page to return to (a path of this server), sent as `_back`. */
  back?: string;
  multipart?: boolean;
  /** A small form on one line (a button) instead of a block. */
  inline?: boolean;
  /** Extra trusted attributes of the button (aria-pressed, title...). */
  buttonAttributes?: string;
  /** An accessible name for a form of a bare button, where the button's text alone is not clear. */
  label?: string;
}

/** Forms whose error was shown by a form, so the page does not repeat it above everything. */
const SHOWN = new WeakSet<FormState>();

/** The state of the form that was posted, if this is that form: same action and the same method. */
function stateFor(spec: FormSpec, page: PageContext | undefined): FormState | undefined {
  const state = page?.form;
  return state !== undefined && state.action === spec.action && state.method === spec.method ? state : undefined;
}

/** A field named in an error: `data.text` is the form's `text`. */
function fieldOf(error: { field: string }): string {
  return error.field.startsWith('data.') ? error.field.slice('data.'.length) : error.field;
}

export function renderForm(spec: FormSpec, page: PageContext | undefined): string {
  const state = stateFor(spec, page);
  if (state) SHOWN.add(state);
  const names = new Set((spec.fields ?? []).map((field) => field.name));
  const hidden: string[] = [];
  if (spec.method !== 'POST') hidden.push(`<input type="hidden" name="_method" value="${spec.method}">`);
  if (spec.back !== undefined) hidden.push(`<input type="hidden" name="_back" value="${escapeHtml(spec.back)}">`);
  const rows: string[] = [];
  for (const field of spec.fields ?? []) {
    const typed = state?.values[field.name];
    const value = field.type === 'password' || field.type === 'file' || field.type === 'hidden' ? field.value : typed ?? field.value;
    const id = `${spec.id}-${field.name}`;
    if (field.type === 'hidden') {
      hidden.push(`<input type="hidden" name="${escapeHtml(field.name)}" value="${escapeHtml(value ?? '')}">`);
      continue;
    }
    const messages = (state?.errors ?? []).filter((error) => fieldOf(error) === field.name).map((error) => error.message);
    const invalid = messages.length > 0 ? ` aria-invalid="true" aria-describedby="${id}-error"` : '';
    const error = messages.length > 0 ? `<span class="error" id="${id}-error">${escapeHtml(`${field.label ?? field.name}: ${messages.join('; ')}`)}</span>` : '';
    const attributes = `${field.attributes ? ` ${field.attributes}` : ''}${invalid}`;
    const control = field.type === 'textarea'
      ? `<textarea id="${id}" name="${escapeHtml(field.name)}"${attributes}>${escapeHtml(value ?? '')}</textarea>`
      : `<input id="${id}" name="${escapeHtml(field.name)}" type="${field.type}"${value !== undefined ? ` value="${escapeHtml(value)}"` : ''}${attributes}>`;
    const label = `<label for="${id}">${escapeHtml(field.label ?? field.name)}</label>`;
    // A checkbox reads best before its label, on one line.
    rows.push(field.type === 'checkbox' ? `<p class="check">${control} ${label}${error}</p>` : `<p class="field">${label}${control}${error}</p>`);
  }
  // The message of a broken rule that names no field of this form (a 403, a 409 of another field) goes first.
  const other = (state?.errors ?? []).filter((error) => !names.has(fieldOf(error)));
  const alert = state === undefined ? '' : `<p class="error" role="alert">${escapeHtml(`Not done (${state.status} ${state.title}): ${other.length > 0 || state.errors.length === 0 ? state.detail : 'see below.'}`)}</p>`;
  const enctype = spec.multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded';
  const label = spec.label !== undefined ? ` aria-label="${escapeHtml(spec.label)}"` : '';
  const button = `<button type="submit"${spec.buttonAttributes ? ` ${spec.buttonAttributes}` : ''}>${escapeHtml(spec.button)}</button>`;
  const body = spec.inline && rows.length === 0 ? `${hidden.join('')}${button}` : `${hidden.join('')}\n${rows.join('\n')}\n<p>${button}</p>`;
  return `<form method="post" action="${escapeHtml(spec.action)}" enctype="${enctype}"${spec.inline ? ' class="inline"' : ''}${label}>${alert}${body}</form>`;
}

/** The error of the posted form when no form on the page showed it (its form is elsewhere): shown above the page. */
export function unshownFormError(page: PageContext | undefined): string {
  const state = page?.form;
  if (state === undefined || SHOWN.has(state)) return '';
  const fields = state.errors.map((error) => `<li>${escapeHtml(`${fieldOf(error)}: ${error.message}`)}</li>`).join('');
  return `<div class="error" role="alert"><p>${escapeHtml(`Not done (${state.status} ${state.title}): ${state.detail}`)}</p>${fields ? `<ul>${fields}</ul>` : ''}</div>`;
}
