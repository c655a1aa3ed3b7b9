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

/**
 * A route schema whose query and path parameters with a `default` are not `required`: the
 * validator fills them in, so a client may leave them out, and the OpenAPI document must say so.
 */
export function optionalDefaults<T>(schema: T): T {
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy = { ...schema } as Record<string, unknown>;
  for (const part of ['querystring', 'params']) {
    const partSchema = copy[part] as {
      properties?: Record<string, { default?: unknown }>;
      required?: string[];
    };
    if (!partSchema?.properties || !Array.isArray(partSchema.required)) continue;
    const properties = partSchema.properties;
    copy[part] = {
      ...partSchema,
      required: partSchema.required.filter((name) => properties[name]?.default === undefined),
    };
  }
  return copy as T;
}
