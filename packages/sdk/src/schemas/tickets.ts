import * as z from 'zod/mini'
import { Count, Id, TimestampMicros, Uuid } from './common.js'

/** Ticket departments. */
export const DEPARTMENTS = ['technical', 'billing', 'sales', 'abuse', 'general'] as const
/** A ticket department. */
export const Department = z.enum(DEPARTMENTS, { error: `must be one of ${DEPARTMENTS.join(', ')}` })
/** A ticket department. */
export type Department = z.infer<typeof Department>

/** Ticket states. */
export const TICKET_STATUSES = ['open', 'in_progress', 'resolved', 'closed'] as const
/** A ticket state. */
export const TicketStatus = z.enum(TICKET_STATUSES, { error: `must be one of ${TICKET_STATUSES.join(', ')}` })
/** A ticket state. */
export type TicketStatus = z.infer<typeof TicketStatus>

/** Ticket priorities. */
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const
/** A ticket priority. */
export const Priority = z.enum(PRIORITIES, { error: `must be one of ${PRIORITIES.join(', ')}` })
/** A ticket priority. */
export type Priority = z.infer<typeof Priority>

/** Longest ticket subject. */
export const SUBJECT_MAX_LENGTH = 255
/** Longest ticket message. */
export const MESSAGE_MAX_LENGTH = 5000

/** A ticket subject: 1 to 255 characters. */
export const Subject = z
  .string()
  .check(
    z.minLength(1, 'must not be empty'),
    z.maxLength(SUBJECT_MAX_LENGTH, `must be at most ${SUBJECT_MAX_LENGTH} characters`),
  )

/** A ticket message: 1 to 5000 characters. */
export const MessageText = z
  .string()
  .check(
    z.minLength(1, 'must not be empty'),
    z.maxLength(MESSAGE_MAX_LENGTH, `must be at most ${MESSAGE_MAX_LENGTH} characters`),
  )

/** A ticket as listed. */
export const Ticket = z.object({
  id: Id,
  uuid: Uuid,
  user_id: Id,
  subject: z.string(),
  department: Department,
  status: TicketStatus,
  priority: Priority,
  messages_count: Count,
  created_at: TimestampMicros,
  updated_at: TimestampMicros,
})
/** A ticket as listed. */
export type Ticket = z.infer<typeof Ticket>

/** Who wrote a ticket message. */
export const MessageAuthor = z.enum(['client', 'staff'])
/** Who wrote a ticket message. */
export type MessageAuthor = z.infer<typeof MessageAuthor>

/** A ticket message. Internal staff notes never appear through the API. */
export const TicketMessage = z.object({
  id: Id,
  message: z.string(),
  from: MessageAuthor,
  created_at: TimestampMicros,
})
/** A ticket message. */
export type TicketMessage = z.infer<typeof TicketMessage>

/** A ticket with its non-internal messages, oldest first. */
export const TicketDetail = z.object({
  ...Ticket.shape,
  service_id: z.nullable(Uuid),
  messages: z.array(TicketMessage),
})
/** A ticket with its non-internal messages. */
export type TicketDetail = z.infer<typeof TicketDetail>

/** Body of `POST /support/tickets`. */
export const TicketCreateBody = z.strictObject({
  subject: Subject,
  message: MessageText,
  department: Department,
  priority: z._default(Priority, 'normal'),
  service_id: z.optional(Uuid),
})
/** What `api.tickets.create` takes. */
export type TicketCreateParams = z.input<typeof TicketCreateBody>
/** The create-ticket body once defaults are applied. */
export type TicketCreateBody = z.output<typeof TicketCreateBody>

/** The `data` of a create-ticket answer. */
export const TicketCreated = z.object({
  ticket_id: Uuid,
  subject: z.string(),
  department: Department,
  priority: Priority,
  status: TicketStatus,
})
/** The `data` of a create-ticket answer. */
export type TicketCreated = z.infer<typeof TicketCreated>

/** Body of `POST /support/tickets/{uuid}/messages`. */
export const TicketReplyBody = z.strictObject({ message: MessageText })
/** Body of `POST /support/tickets/{uuid}/messages`. */
export type TicketReplyBody = z.infer<typeof TicketReplyBody>

/** The `data` of a close or reopen answer. */
export const TicketStatusChange = z.object({ ticket_id: Uuid, status: TicketStatus })
/** The `data` of a close or reopen answer. */
export type TicketStatusChange = z.infer<typeof TicketStatusChange>
