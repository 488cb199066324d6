// The route pattern of the event stream and long-poll (CONTRACT §9).
export const EVENTS_PATH = '/events';
