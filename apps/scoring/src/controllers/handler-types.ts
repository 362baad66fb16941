import type { ParsedRequestOf, ReplyOf, SubjectName } from '@credit/contracts/subjects';

/** The request a `@Handles(S)` method receives: already parsed by the subject's schema. */
export type Req<S extends SubjectName> = ParsedRequestOf<S>;

/**
 * What a `@Handles(S)` method returns. It must be spelled exactly as the decorator's handler type
 * (`ReplyOf<S> | Promise<ReplyOf<S>>`): TypeScript checks a method decorator's descriptor type both
 * ways, so a narrower return type (sync only) does not type-check.
 */
export type Answer<S extends SubjectName> = ReplyOf<S> | Promise<ReplyOf<S>>;
