// What search indexes of a message's attachments (docs/protocol.md §15): their names, from the summary the message keeps.
import { NO_ATTACHMENTS } from './rows.ts';

/** The names in a message's attachments summary, one space apart ('' for none): the second column of its search index. */
export function attachmentNamesOf(attachments: string): string {
  if (attachments === NO_ATTACHMENTS) return '';
  return (JSON.parse(attachments) as { name: string }[]).map((attachment) => attachment.name).join(' ');
}
