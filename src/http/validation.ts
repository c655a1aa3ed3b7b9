/**
 * Request validation. Query strings and path parameters are text, so their validator coerces
 * (`limit=10` is the integer 10); bodies are JSON and are never coerced (`{"prompt": 5}` is a 400,
 * not the string "5"). Every problem is reported, and unknown body fields are rejected rather than
 * silently dropped.
 */
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; its default export arrives wrapped under Node's ESM loader.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    ...options,
  });
  addFormats(ajv);
  return ajv;
}

export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const textAjv = createAjv({ coerceTypes: 'array' });
  const bodyAjv = createAjv({ coerceTypes: false });
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : textAjv;
    return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}
