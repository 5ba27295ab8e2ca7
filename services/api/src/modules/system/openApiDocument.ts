import {
  actorViewSchema,
  adminUserLedgerSchema,
  appsResponseSchema,
  appViewSchema,
  authProvidersSchema,
  birthDataSchema,
  birthPlaceSchema,
  checkoutStatusSchema,
  creditLotsSchema,
  devLoginRequestSchema,
  errorBodySchema,
  healthSchema,
  healthStartingSchema,
  ledgerEntryViewSchema,
  ledgerPageSchema,
  libraryItemSchema,
  libraryPageSchema,
  meSchema,
  placeViewSchema,
  pricingResponseSchema,
  pricingRowSchema,
  pricingTierSchema,
  profileUpdateSchema,
  readingCreatedSchema,
  readingViewSchema,
  sessionSchema,
  siteInfoSchema,
  subscriptionActionSchema,
  subscriptionStatusSchema,
  subscriptionViewSchema,
} from '@astra/contracts';
import { z } from 'zod';
import { type ApiRoute, errorsOf, type RouteError } from '../../http/routeDescriptors.ts';

/**
 * The OpenAPI 3.1 document of the HTTP API, built from the route table (`http/routeTable.ts`) and
 * the zod schemas with zod's own `z.toJSONSchema` (JSON Schema 2020-12, the dialect of OpenAPI 3.1):
 * request bodies and query parameters as the client sends them (`io: 'input'`), answers as the
 * server writes them (`io: 'output'`). Served at `GET /api/openapi.json`.
 */

type JsonSchema = Record<string, unknown>;

/** Names of the shared schemas in `components.schemas`; any other route schema gets a name from its route. */
const outputNames: [string, z.ZodType][] = [
  ['Error', errorBodySchema],
  ['Me', meSchema],
  ['Session', sessionSchema],
  ['SiteInfo', siteInfoSchema],
  ['CreditLots', creditLotsSchema],
  ['SubscriptionView', subscriptionViewSchema],
  ['Actor', actorViewSchema],
  ['LedgerEntry', ledgerEntryViewSchema],
  ['LedgerPage', ledgerPageSchema],
  ['AdminUserLedger', adminUserLedgerSchema],
  ['AuthProviders', authProvidersSchema],
  ['App', appViewSchema],
  ['Apps', appsResponseSchema],
  ['ReadingCreated', readingCreatedSchema],
  ['Reading', readingViewSchema],
  ['LibraryItem', libraryItemSchema],
  ['LibraryPage', libraryPageSchema],
  ['Place', placeViewSchema],
  ['PricingRow', pricingRowSchema],
  ['PricingTier', pricingTierSchema],
  ['Pricing', pricingResponseSchema],
  ['CheckoutStatus', checkoutStatusSchema],
  ['SubscriptionStatus', subscriptionStatusSchema],
  ['SubscriptionAction', subscriptionActionSchema],
  ['Health', healthSchema],
  ['HealthStarting', healthStartingSchema],
];
const inputNames: [string, z.ZodType][] = [
  ['BirthData', birthDataSchema],
  ['ProfileUpdate', profileUpdateSchema],
  ['BirthPlace', birthPlaceSchema],
  ['DevLoginRequest', devLoginRequestSchema],
];

const pascal = (text: string) =>
  text.replace(/(^|[_\-\s])(\w)/g, (_m, _sep, c: string) => c.toUpperCase());

/** A registry of named schemas, turned into `components.schemas` entries. */
class Components {
  readonly registry = z.registry<{ id: string }>();
  private readonly names = new Map<z.ZodType, string>();
  constructor(
    private readonly io: 'input' | 'output',
    private readonly taken: Set<string>,
    preset: [string, z.ZodType][],
  ) {
    for (const [name, schema] of preset) this.name(schema, name);
  }

  /** The `$ref` of a schema, naming it `suggested` if it has no name yet. */
  ref(schema: z.ZodType, suggested: string): JsonSchema {
    return { $ref: `#/components/schemas/${this.name(schema, suggested)}` };
  }

  private name(schema: z.ZodType, suggested: string) {
    const known = this.names.get(schema);
    if (known) return known;
    let name = suggested;
    for (let n = 2; this.taken.has(name); n++) name = `${suggested}${n}`;
    this.taken.add(name);
    this.names.set(schema, name);
    this.registry.add(schema, { id: name });
    return name;
  }

  schemas(): Record<string, JsonSchema> {
    const { schemas } = z.toJSONSchema(this.registry, {
      target: 'draft-2020-12',
      io: this.io,
      unrepresentable: 'any',
      uri: (id) => `#/components/schemas/${id}`,
    }) as { schemas: Record<string, JsonSchema> };
    return Object.fromEntries(
      Object.entries(schemas).map(([name, { $schema: _s, $id: _i, ...schema }]) => [name, schema]),
    );
  }
}

const inlineSchema = (schema: z.ZodType): JsonSchema => {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
};

const requestIdHeader = { $ref: '#/components/headers/X-Request-Id' };

function operationOf(route: ApiRoute, outputs: Components, inputs: Components) {
  const name = pascal(route.operationId);
  const parameters: JsonSchema[] = [
    ...[...route.path.matchAll(/\{(\w+)\}/g)].map(([, param]) => ({
      name: param,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })),
    ...Object.entries(route.query?.shape ?? {}).map(([param, schema]) => ({
      name: param,
      in: 'query',
      required: !(schema as z.ZodType).safeParse(undefined).success,
      schema: inlineSchema(schema as z.ZodType),
    })),
    { $ref: '#/components/parameters/X-Request-Id' },
  ];
  const errors = errorsOf(route);
  if (errors.some((e) => e.code === 'idempotency_key_reused'))
    parameters.push({ $ref: '#/components/parameters/Idempotency-Key' });

  const responses: Record<string, JsonSchema> = {};
  for (const [status, answer] of Object.entries(route.responses)) {
    const contentType = answer.contentType ?? 'application/json';
    responses[status] = {
      description: answer.description,
      headers: { 'X-Request-Id': requestIdHeader },
      ...(answer.schema || answer.contentType
        ? {
            content: {
              [contentType]: {
                schema: answer.schema ? outputs.ref(answer.schema, `${name}Response`) : {},
              },
            },
          }
        : {}),
      // Server-sent events (OpenAPI 3.1 has no words for them): each event's `data` by its name.
      ...(answer.events
        ? {
            'x-sse-events': Object.fromEntries(
              Object.entries(answer.events).map(([event, schema]) => [
                event,
                outputs.ref(schema, `${name}${pascal(event)}Event`),
              ]),
            ),
          }
        : {}),
    };
  }
  const byStatus = new Map<number, RouteError[]>();
  for (const error of errors)
    byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const generic = list.filter((e) => !e.schema).map((e) => e.code);
    const specific = list
      .filter((e) => e.schema)
      .map((e) => outputs.ref(e.schema!, `${pascal(e.code)}Error`));
    const genericSchema = generic.length
      ? [
          {
            allOf: [{ $ref: '#/components/schemas/Error' }],
            properties: { error: { enum: [...new Set(generic)] } },
          },
        ]
      : [];
    const all = [...specific, ...genericSchema];
    responses[String(status)] = {
      description: list.map((e) => `\`${e.code}\`: ${e.when}`).join('. '),
      headers: { 'X-Request-Id': requestIdHeader },
      'x-error-codes': [...new Set(list.map((e) => e.code))],
      content: { 'application/json': { schema: all.length === 1 ? all[0] : { anyOf: all } } },
    };
  }

  const body = route.body
    ? {
        required: route.body.required,
        content: {
          [route.body.contentType]: {
            schema: route.body.schema
              ? inputs.ref(route.body.schema, `${name}Request`)
              : route.body.contentType === 'application/octet-stream'
                ? { type: 'string', contentMediaType: 'application/octet-stream' }
                : { type: 'object' },
          },
        },
      }
    : undefined;

  const notes = [
    route.onlyWhen ? `Only when ${route.onlyWhen}.` : '',
    route.rateLimited ? `At most ${route.rateLimited} a minute per client address.` : '',
    'See docs/api.md for the rules.',
  ].filter(Boolean);
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description: notes.join(' '),
    parameters,
    ...(body ? { requestBody: body } : {}),
    responses,
    security:
      route.auth === 'user' || route.auth === 'unlocked_admin'
        ? [{ session: [] }]
        : route.auth === 'stripe_signature'
          ? [{ stripeSignature: [] }]
          : [],
    'x-auth': route.auth,
    ...(route.onlyWhen ? { 'x-only-when': route.onlyWhen } : {}),
    ...(route.rateLimited ? { 'x-rate-limit-per-minute': route.rateLimited } : {}),
  };
}

export interface OpenApiOptions {
  /** The `servers` entry, e.g. the configured PUBLIC_URL; none: relative to the document. */
  serverUrl?: string;
}

/** The OpenAPI 3.1 document of the routes (the route table, `apiRoutes`). */
export function buildOpenApiDocument(routes: readonly ApiRoute[], options: OpenApiOptions = {}) {
  const taken = new Set<string>();
  const outputs = new Components('output', taken, outputNames);
  const inputs = new Components('input', taken, inputNames);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method] = operationOf(route, outputs, inputs);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Astra API',
      version: '0.1.0',
      description:
        'Readings on an event-sourced credit ledger. Generated from the route descriptors beside their handlers (services/api) and the zod contracts (@astra/contracts); the rules are in docs/api.md. Errors are `{error, message, ...}`; validation errors add `fields: [{field, message}]`.',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: ['System', 'Sign-in', 'Account', 'Readings', 'Payments', 'Admin'].map((name) => ({
      name,
    })),
    paths,
    components: {
      schemas: { ...outputs.schemas(), ...inputs.schemas() },
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'astra.sid',
          description: 'The session cookie a sign-in sets (its name is SESSION_COOKIE).',
        },
        stripeSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'Stripe-Signature',
          description: "Stripe's signature of the raw body with STRIPE_WEBHOOK_SECRET.",
        },
      },
      parameters: {
        'X-Request-Id': {
          name: 'X-Request-Id',
          in: 'header',
          required: false,
          description: "Becomes the correlationId of the request's events; otherwise a UUID.",
          schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,100}$' },
        },
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'A repeat of the same request replays the first answer (`Idempotent-Replayed: true`).',
          schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,200}$' },
        },
      },
      headers: {
        'X-Request-Id': {
          description: "The request's id, on every answer.",
          schema: { type: 'string' },
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
