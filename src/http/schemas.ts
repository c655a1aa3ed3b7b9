/** Schemas shared by every area's routes. */
import { Type } from '@fastify/type-provider-typebox';

export const ErrorResponse = Type.Object(
  {
    error: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ message: Type.String() }))),
  },
  { description: 'Every error: a message, and one detail per problem for validation errors' },
);

/** Project ids are `prj_` plus 20 characters; anything longer is never one. */
export const ProjectIdParameter = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'The project identifier',
});

/** `{401: ErrorResponse, 404: ErrorResponse, ...}` for a route's `response` schema. */
export function errorResponses<const Statuses extends readonly number[]>(
  ...statuses: Statuses
): { [Status in Statuses[number]]: typeof ErrorResponse } {
  return Object.fromEntries(statuses.map((status) => [status, ErrorResponse])) as {
    [Status in Statuses[number]]: typeof ErrorResponse;
  };
}

export const bearerSecurity = [{ bearerAuth: [] }];
