/** A petstore-style document used by the import tests, as an object, as JSON and as YAML. */
export const petstore = {
  openapi: '3.0.3',
  info: { title: 'Petstore', version: '1.0.0' },
  servers: [{ url: 'https://{env}.pets.example.com/v1', variables: { env: { default: 'api', enum: ['api', 'staging'] } } }],
  security: [{ api_key: [] }],
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }],
        responses: {
          '200': { description: 'pets', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pets' } } } },
        },
      },
      post: {
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { '201': { description: 'created' } },
      },
    },
    '/pets/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        responses: {
          '200': { description: 'a pet', content: { 'application/json': { example: { id: 1, name: 'Rex' } } } },
        },
      },
      delete: { operationId: 'deletePet', responses: { '204': { description: 'gone' } } },
    },
    '/health': {
      get: { operationId: 'health', responses: { '200': { description: 'ok', content: { 'text/plain': {} } } } },
      put: {
        operationId: 'uploadHealth',
        requestBody: { content: { 'text/plain': { schema: { type: 'string' } } } },
        responses: { default: { $ref: '#/components/responses/Error' } },
      },
    },
  },
  components: {
    schemas: {
      Pet: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' } } },
      Pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
    },
    responses: {
      Error: { description: 'error', content: { 'application/json': { examples: { boom: { value: { error: 'x' } } } } } },
    },
    securitySchemes: {
      api_key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      basic: { type: 'http', scheme: 'basic' },
    },
  },
};

export const petstoreJson = JSON.stringify(petstore, null, 2);

export const petstoreYaml = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
servers:
  - url: "https://{env}.pets.example.com/v1"
    variables:
      env:
        default: api
        enum: [api, staging]
security:
  - api_key: []
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - name: limit
          in: query
          schema: { type: integer }
      responses:
        "200":
          description: pets
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Pets"
    post:
      requestBody:
        content:
          application/json:
            schema:
              $ref: "#/components/schemas/Pet"
      responses:
        "201":
          description: created
  /pets/{id}:
    parameters:
      - name: id
        in: path
        required: true
        schema: { type: string }
    get:
      responses:
        "200":
          description: a pet
          content:
            application/json:
              example: { id: 1, name: Rex }
    delete:
      operationId: deletePet
      responses:
        "204":
          description: gone
  /health:
    get:
      operationId: health
      responses:
        "200":
          description: ok
          content:
            text/plain: {}
    put:
      operationId: uploadHealth
      requestBody:
        content:
          text/plain:
            schema: { type: string }
      responses:
        default:
          $ref: "#/components/responses/Error"
components:
  schemas:
    Pet:
      type: object
      required: [id]
      properties:
        id: { type: integer }
        name: { type: string }
    Pets:
      type: array
      items:
        $ref: "#/components/schemas/Pet"
  responses:
    Error:
      description: error
      content:
        application/json:
          examples:
            boom:
              value: { error: x }
  securitySchemes:
    api_key:
      type: apiKey
      in: header
      name: X-Api-Key
    basic:
      type: http
      scheme: basic
`;

/** Status of a thrown AppError (or 200 when nothing was thrown). */
export async function statusOf(fn: () => unknown): Promise<number> {
  try {
    await fn();
  } catch (e) {
    const s = (e as { status?: number }).status;
    return typeof s === 'number' ? s : -1;
  }
  return 200;
}

export async function errorOf(fn: () => unknown): Promise<{ status: number; message: string; details?: Array<{ path: string; message: string }> }> {
  try {
    await fn();
  } catch (e) {
    const err = e as { status: number; message: string; details?: Array<{ path: string; message: string }> };
    return { status: err.status, message: err.message, details: err.details };
  }
  throw new Error('expected an error');
}
