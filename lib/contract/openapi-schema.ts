// JSON Schema of a zod contract schema (zod 4 native, draft 2020-12) with the extension fields
// (openapi-extensions.ts) and cross-field rules (openapi-rules.ts) added; used by the OpenAPI document (openapi.ts).
import { z } from "zod";
import { EXTENSION_FIELDS } from "./openapi-extensions";
import { CROSS_FIELD_RULES, type JsonSchema } from "./openapi-rules";

/** Names of the extension fields added to any schema generated so far (the document's `x-extension-fields`). */
const EXTENSION_NAMES = new Set<string>();
export const extensionFieldNames = (): string[] => [...EXTENSION_NAMES].sort();

const defOf = (s: z.ZodType): object => s._zod.def;
const EXTENSIONS_BY_DEF = new Map(EXTENSION_FIELDS.map(([s, fields]) => [defOf(s), fields]));
const RULES_BY_DEF = new Map(CROSS_FIELD_RULES.map(([s, rules]) => [defOf(s), rules]));

function decorate(zodSchema: z.ZodType, json: JsonSchema, io: "input" | "output"): void {
  const fields = EXTENSIONS_BY_DEF.get(defOf(zodSchema));
  if (fields && json.type === "object") {
    const properties = ((json.properties as JsonSchema | undefined) ?? {}) as JsonSchema;
    for (const [key, schema] of Object.entries(fields)) {
      properties[key] = jsonSchemaOf(schema, io);
      EXTENSION_NAMES.add(key);
    }
    json.properties = properties;
  }
  const rules = RULES_BY_DEF.get(defOf(zodSchema));
  if (!rules) return;
  // a `.meta()` copy is decorated after its original and inherits part of it (allOf): add each part once
  const allOf = (json.allOf as JsonSchema[] | undefined) ?? [];
  const have = new Set(allOf.map((s) => JSON.stringify(s)));
  const missing = (rules.allOf ?? []).filter((s) => !have.has(JSON.stringify(s)));
  if (missing.length) json.allOf = [...allOf, ...missing];
  const description = typeof json.description === "string" ? json.description : "";
  if (!description.includes(RULES_HEADING)) {
    json.description = `${description ? `${description}\n\n` : ""}${RULES_HEADING}\n${rules.text.map((t) => `- ${t}`).join("\n")}`;
  }
}
const RULES_HEADING = "Cross-field rules:";

/** JSON Schema for one side of a zod schema, extensions and cross-field rules included; never throws (falls back to an unconstrained schema). */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  try {
    const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
      io,
      unrepresentable: "any",
      override: ({ zodSchema, jsonSchema }) => decorate(zodSchema as unknown as z.ZodType, jsonSchema as JsonSchema, io),
    }) as Record<string, unknown>;
    return rest;
  } catch {
    return {};
  }
}
