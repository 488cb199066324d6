// The route patterns of chats and everything under them: the one source of their Location headers and links.
export const CHATS_PATH = '/chats';
export const CHAT_PATH = '/chats/:chatId';
export const MEMBERS_PATH = '/chats/:chatId/members';
export const MEMBER_PATH = '/chats/:chatId/members/:userId';
export const MESSAGES_PATH = '/chats/:chatId/messages';
export const MESSAGE_PATH = '/chats/:chatId/messages/:messageId';
export const READ_PATH = '/chats/:chatId/read';
export const MESSAGE_ACTIONS_PATH = '/chats/:chatId/messages/:messageId/actions';
/** The same message addressed from the top level (CONTRACT §4). */
export const TOP_MESSAGE_PATH = '/messages/:messageId';
export const TOP_MESSAGE_ACTIONS_PATH = '/messages/:messageId/actions';
export const REACTIONS_PATH = '/chats/:chatId/messages/:messageId/reactions';
export const REACTION_PATH = '/chats/:chatId/messages/:messageId/reactions/:emoji';
export const REVISIONS_PATH = '/chats/:chatId/messages/:messageId/revisions';
export const REVISION_PATH = '/chats/:chatId/messages/:messageId/revisions/:revisionId';
export const TOP_REACTIONS_PATH = '/messages/:messageId/reactions';
export const TOP_REACTION_PATH = '/messages/:messageId/reactions/:emoji';
export const TOP_REVISIONS_PATH = '/messages/:messageId/revisions';
export const TOP_REVISION_PATH = '/messages/:messageId/revisions/:revisionId';
