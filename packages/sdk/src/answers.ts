/**
 * The wire types of answers as the client reads them: the schemas' types with every enum open to
 * values a newer service may add. A `switch` over the known values still narrows; the `default`
 * branch receives the others (docs/errors-and-retries.md, "Answers from a newer service").
 */
import type * as S from './schemas/wire.js'

/** A union of known string values, open to others: `'open' | 'closed' | (string & {})`. */
export type OpenEnum<T extends string> = string extends T ? string : T | (string & {})

/** `T` as answered: each string-literal union opened with {@link OpenEnum}, in every nested object. */
export type Answer<T> = T extends string
  ? OpenEnum<T>
  : T extends readonly (infer E)[]
    ? Answer<E>[]
    : T extends object
      ? { [K in keyof T]: Answer<T[K]> }
      : T

/** A ticket as listed. */
export type Ticket = Answer<S.Ticket>
/** A ticket with its messages. */
export type TicketDetail = Answer<S.TicketDetail>
/** A ticket message. */
export type TicketMessage = Answer<S.TicketMessage>
/** The `data` of a create-ticket answer. */
export type TicketCreated = Answer<S.TicketCreated>
/** The `data` of a close or reopen answer. */
export type TicketStatusChange = Answer<S.TicketStatusChange>
/** A ticket state: `open`, `in_progress`, `resolved`, `closed`, or one a newer service adds. */
export type TicketStatus = OpenEnum<S.TicketStatus>
/** A ticket department. */
export type Department = OpenEnum<S.Department>
/** A ticket priority. */
export type Priority = OpenEnum<S.Priority>
/** Who wrote a ticket message. */
export type MessageAuthor = OpenEnum<S.MessageAuthor>
/** A provisioning answer: live or sandbox (discriminated by `sandbox`). */
export type HostingCreated = Answer<S.HostingCreated>
/** WHM usage and limits. */
export type WhmUsage = Answer<S.WhmUsage>
/** A cPanel account on the WHM. */
export type WhmAccount = Answer<S.WhmAccount>
/** A WHM account's state. */
export type AccountStatus = OpenEnum<S.AccountStatus>
/** The `data` of an account deletion. */
export type WhmAccountDeleted = Answer<S.WhmAccountDeleted>
/** A WHM package. */
export type WhmPackage = Answer<S.WhmPackage>
/** The `data` of a package deletion. */
export type WhmPackageDeleted = Answer<S.WhmPackageDeleted>
/** The reseller-style webhook configuration. */
export type ResellerWebhook = Answer<S.ResellerWebhook>
/** The outcome of a reseller webhook test. */
export type ResellerWebhookTestResult = Answer<S.ResellerWebhookTestResult>
/** A general webhook as created, with its secret. */
export type WebhookCreated = Answer<S.WebhookCreated>
/** One delivery of an event to a general webhook. */
export type Delivery = Answer<S.Delivery>
/** A delivery's state. */
export type DeliveryStatus = OpenEnum<S.DeliveryStatus>
/** One of the caller's services. */
export type Service = Answer<S.Service>
/** One of the caller's invoices. */
export type Invoice = Answer<S.Invoice>
/** Pagination details of a list answer. */
export type PageMeta = S.PageMeta
