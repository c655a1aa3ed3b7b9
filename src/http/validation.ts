/**
 * Request validation. Query strings and path parameters are text, so their validator coerces
 * (`limit=10` is the integer 10), but only from decimal digits: Ajv's coercion takes whatever
 * JavaScript's `Number()` does, so `0x10`, `1e1`, ` 16` or an empty value would pass as numbers.
 * Bodies are JSON and are never coerced (`{"prompt": 5}` is a 400, not the string "5"). Every
 * problem is reported, and unknown body fields are rejected rather than silently dropped.
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

const decimalPatterns = {
  integer: /^-?(?:0|[1-9]\d*)$/,
  number: /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/,
} as const;
const decimalMessages = new Map<RegExp, string>([
  [decimalPatterns.integer, 'must be integer, written in decimal digits'],
  [decimalPatterns.number, 'must be number, written in decimal digits'],
]);

/** The properties of an object schema that are numbers, with the text each must look like. */
function numericProperties(schema: unknown): [string, RegExp][] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  const numeric: [string, RegExp][] = [];
  for (const [name, property] of Object.entries(properties)) {
    const types = [property?.type].flat();
    if (types.includes('integer')) numeric.push([name, decimalPatterns.integer]);
    else if (types.includes('number')) numeric.push([name, decimalPatterns.number]);
  }
  return numeric;
}

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

function decimalOnly(validate: Validate, numeric: [string, RegExp][]): Validate {
  if (numeric.length === 0) return validate;
  const checked: Validate = (data) => {
    const values = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
    const problems = numeric
      .filter(([name, pattern]) => {
        const value = values[name];
        return [value].flat().some((one) => typeof one === 'string' && !pattern.test(one));
      })
      .map(([name, pattern]) => ({
        instancePath: `/${name}`,
        message: decimalMessages.get(pattern),
        params: {},
      }));
    if (problems.length > 0) {
      checked.errors = problems;
      return false;
    }
    const valid = validate(data);
    checked.errors = validate.errors;
    return valid;
  };
  return checked;
}

export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const textAjv = createAjv({ coerceTypes: 'array' });
  const bodyAjv = createAjv({ coerceTypes: false });
  return ({ schema, httpPart }) => {
    if (httpPart === 'body') {
      return bodyAjv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
    }
    const validate = textAjv.compile(schema as object) as Validate;
    return decimalOnly(validate, numericProperties(schema)) as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}
