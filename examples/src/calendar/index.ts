export type { CalendarEvent } from './events.js';
export { CALENDAR_ID, createCalendarService, RESCHEDULE_UNDO_WINDOW } from './service.js';
