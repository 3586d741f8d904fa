/// <reference types="vite/client" />

/** Swagger UI's prebuilt bundle (swagger-ui-dist ships no types): the `SwaggerUI(options)` factory. */
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  const SwaggerUI: (options: Record<string, unknown>) => unknown;
  export default SwaggerUI;
}
