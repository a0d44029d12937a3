import { STATUS_CODES } from 'node:http';
import { requestSample, sampleJson, sampleOf, wireName, type SampleStyle } from './samples.js';
import { tsType } from './typescript-dtos.js';
import { requiredFields, type ApiModel, type OperationModel, type TypeModel, type TypeRef } from './type-model.js';

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const STYLE = `body{font-family:system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#222}
table{border-collapse:collapse;width:100%;margin:1em 0}th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
th{background:#f4f4f4}pre{background:#f7f7f7;border:1px solid #ddd;padding:.8em;overflow:auto}code{font-size:.95em}`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
${body}
</body></html>
`;
}

export interface MetadataPageOptions extends SampleStyle {
  /** Prefix of every route (BASE_PATH), for links and sample request lines. */
  readonly basePath: string;
}

/** `/metadata`: every operation with its routes, permission and summary, linking to its detail page. */
export function metadataIndex(model: ApiModel, o: MetadataPageOptions): string {
  const rows = model.operations
    .map((m) => {
      const routes = m.op.routes.map((r) => `<code>${r.method} ${escapeHtml(r.path)}</code>`).join('<br>');
      const link = `${o.basePath}/json/metadata?op=${encodeURIComponent(m.op.name)}`;
      return `<tr><td><a href="${escapeHtml(link)}">${escapeHtml(m.op.name)}</a></td><td>${routes}</td><td>${m.op.permission}</td><td>${escapeHtml(m.op.summary)}</td></tr>`;
    })
    .join('\n');
  return page(
    'ordergate operations',
    `<h1>ordergate</h1>
<p>The following operations are supported. Every operation needs an API key (<code>Authorization: Bearer &lt;key&gt;</code>, or Basic with the key as user name).
ServiceStack clients call <code>/api/&lt;Operation&gt;</code> or <code>/json/reply/&lt;Operation&gt;</code>.</p>
<table><thead><tr><th>Operation</th><th>Routes</th><th>Permission</th><th>Summary</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<p>Typed clients: <a href="${o.basePath}/types/typescript">TypeScript DTOs</a> ·
<a href="${o.basePath}/types/csharp">C# DTOs</a> · <a href="${o.basePath}/types/metadata">metadata (JSON)</a> ·
<a href="${o.basePath}/openapi.json">OpenAPI 3.1</a> · <a href="${o.basePath}/docs">API reference</a></p>`,
  );
}

function fieldTable(t: TypeModel, o: MetadataPageOptions, isRequest: boolean): string {
  if (t.fields.length === 0) return '<p>No properties.</p>';
  const rows = t.fields
    .map((f) => {
      const presence = isRequest ? (f.required ? 'Yes' : 'No') : f.nullable ? 'may be null' : 'always';
      return `<tr><td>${escapeHtml(wireName(f.name, o.casing))}</td><td><code>${escapeHtml(tsType(f.type))}</code></td><td>${presence}</td><td>${escapeHtml(f.description ?? '')}</td></tr>`;
    })
    .join('\n');
  return `<table><thead><tr><th>Name</th><th>Type</th><th>${isRequest ? 'Required' : 'Present'}</th><th>Description</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

function sampleExchange(m: OperationModel, o: MetadataPageOptions): string {
  const route = m.op.routes[0];
  const request = requestSample(m.op, o);
  const path = (route?.path ?? `/api/${m.op.name}`).replace(/\{(\w+)\}/g, (_, v: string) => {
    const key = Object.keys(request).find((k) => k.toLowerCase() === v.toLowerCase());
    const value = key === undefined ? v : request[key];
    if (key !== undefined) delete request[key];
    return encodeURIComponent(Array.isArray(value) ? value.join(',') : String(value));
  });
  const method = route?.method ?? 'POST';
  const hasBody = method !== 'GET' && method !== 'DELETE';
  // A query string of every optional filter would not be a request anyone sends: required ones and the first other.
  const needed = new Set([...requiredFields(m.op.request)].map((n) => wireName(n, o.casing)));
  const shown = Object.entries(request).filter(([k], i, all) => needed.has(k) || all.findIndex(([x]) => !needed.has(x)) === i);
  const query = hasBody ? '' : shown.map(([k, v]) => `${k}=${encodeURIComponent(Array.isArray(v) ? v.join(',') : String(v))}`).join('&');
  const lines = [`${method} ${o.basePath}${path}${query ? '?' + query : ''} HTTP/1.1`, 'Host: localhost', 'Accept: application/json', 'Authorization: Bearer <key>'];
  if (hasBody) lines.push('Content-Type: application/json', '', sampleJson(request, o));
  const status = m.op.successStatus ?? (m.response.kind === 'void' ? 204 : 200);
  const response = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'OK'}`];
  if (m.response.kind !== 'void') response.push('Content-Type: application/json; charset=utf-8', '', sampleJson(sampleOf(m.op.response, o), o));
  return `<h3>Sample request</h3><pre>${escapeHtml(lines.join('\n'))}</pre><h3>Sample response</h3><pre>${escapeHtml(response.join('\n'))}</pre>`;
}

const innerName = (t: TypeRef): string | undefined =>
  t.kind === 'named' ? t.name : t.kind === 'array' ? innerName(t.items) : t.kind === 'map' ? innerName(t.values) : undefined;

/** The named types an operation's request and response reach, directly or through other types. */
function typesUsedBy(model: ApiModel, m: OperationModel): Set<string> {
  const used = new Set<string>();
  const queue = [...m.request.fields.map((f) => f.type), m.response];
  for (let t = queue.shift(); t !== undefined; t = queue.shift()) {
    const name = innerName(t);
    if (name === undefined || used.has(name)) continue;
    used.add(name);
    queue.push(...(model.types.find((x) => x.name === name)?.fields.map((f) => f.type) ?? []));
  }
  return used;
}

/** `/json/metadata?op=<Name>`: one operation's routes, fields and a sample exchange. */
export function metadataOperation(model: ApiModel, m: OperationModel, o: MetadataPageOptions): string {
  const routes = m.op.routes.map((r) => `<li><code>${r.method} ${escapeHtml(o.basePath + r.path)}</code></li>`).join('');
  const used = typesUsedBy(model, m);
  const types = model.types.filter((t) => used.has(t.name)).map((t) => `<h3>${escapeHtml(t.name)}</h3>${fieldTable(t, o, false)}`).join('\n');
  return page(
    `${m.op.name} · ordergate`,
    `<p><a href="${o.basePath}/metadata">&larr; all operations</a></p>
<h1>${escapeHtml(m.op.name)}</h1>
<p>${escapeHtml(m.op.summary)}</p>${m.op.description ? `<p>${escapeHtml(m.op.description)}</p>` : ''}
<p>Permission: <code>${m.op.permission}</code>. Returns <code>${escapeHtml(tsType(m.response))}</code>.</p>
<h2>Routes</h2><ul>${routes}<li><code>ANY ${escapeHtml(o.basePath)}/api/${m.op.name}</code>, <code>ANY ${escapeHtml(o.basePath)}/json/reply/${m.op.name}</code></li></ul>
<h2>Request</h2>${fieldTable(m.request, o, true)}
<h2>Types</h2>${types || '<p>None.</p>'}
<h2>Example</h2>${sampleExchange(m, o)}`,
  );
}
