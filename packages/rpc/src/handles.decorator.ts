import { MessagePattern } from '@nestjs/microservices';
import type { ParsedRequestOf, ReplyOf, SubjectName } from '@credit/contracts/subjects';
import { parseReply, parseRequest } from '@credit/contracts/validate';

type Handler<S extends SubjectName> = (
  request: ParsedRequestOf<S>,
  ...rest: unknown[]
) => ReplyOf<S> | Promise<ReplyOf<S>>;

/**
 * Marks a controller method as the handler of one contract subject. The method receives the
 * request already validated against the subject's schema (so an internal caller that skips the
 * gateway gets the same 4xx answers) and its reply is validated before it leaves.
 */
export function Handles<S extends SubjectName>(subject: S) {
  return (target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<Handler<S>>) => {
    const handler = descriptor.value;
    if (!handler) throw new Error(`@Handles(${subject}) must decorate a method`);
    const wrapped = async function (this: unknown, raw: unknown, ...rest: unknown[]) {
      const reply = await handler.call(this, parseRequest(subject, raw), ...rest);
      return parseReply(subject, reply);
    };
    Object.defineProperty(wrapped, 'name', { value: handler.name });
    descriptor.value = wrapped as unknown as Handler<S>;
    MessagePattern(subject)(target, key, descriptor);
    return descriptor;
  };
}
