// Renders /openapi.json with Swagger UI (the page's only own script: the Content-Security-Policy
// of /docs admits no inline script).
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  // The base layout: no top bar, whose box would load any other document into this page.
  layout: "BaseLayout",
  deepLinking: true,
  // Off: by default Swagger UI embeds a badge image from validator.swagger.io (a third party).
  validatorUrl: null,
  // ?url= and ?configUrl= stay ignored: the page renders this API's document only.
  queryConfigEnabled: false,
  persistAuthorization: false,
  tryItOutEnabled: false,
  displayRequestDuration: true,
  filter: true,
});
