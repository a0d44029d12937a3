import type { SampleStyle } from './samples.js';

/**
 * How the OpenAPI document is written for a deployment. Its own file so that the document
 * (openapi.ts) and its shared parts (openapi-components.ts) both use it without importing each other.
 */
export interface OpenApiOptions extends SampleStyle {
  readonly basePath: string;
  readonly version: string;
}
