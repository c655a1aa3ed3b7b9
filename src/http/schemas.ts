/** Schemas shared by every area's routes. */
import { Type } from '@fastify/type-provider-typebox';

const ErrorResponse = Type.Object(
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
 * Every documented operation may answer these, whatever it does: the one input rule and malformed
 * text (400), a path segment too long (414), the database away (503); with a body also 413, 415
 * and 429 (the request bodies' memory budget, body-memory.ts).
 */
export function withFrameworkErrors<T>(schema: T): T {
  if (typeof schema !== 'object' || schema === null) return schema;
  const route = schema as { response?: Record<string, unknown>; body?: unknown; hide?: boolean };
  if (route.response === undefined || route.hide) return schema;
  const statuses = route.body === undefined ? [400, 414, 503] : [400, 413, 414, 415, 429, 503];
  const response = { ...route.response };
  for (const status of statuses) response[status] ??= ErrorResponse;
  return { ...schema, response } as T;
}

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
