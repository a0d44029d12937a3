import type { DbHandle } from '../store/store.js';
import { toDefinition } from './customfield.mapping.js';
import { customFieldRepository as repo } from './customfield.repository.js';
import type { CustomFieldDefinition } from './customfield.types.js';

/** The definitions as of one definitions version, sorted by Sort then Number. */
export interface DefinitionSet {
  readonly version: number;
  readonly ordered: readonly CustomFieldDefinition[];
}

const freeze = (d: CustomFieldDefinition): CustomFieldDefinition =>
  Object.freeze({ ...d, AllowedValues: d.AllowedValues && Object.freeze([...d.AllowedValues]) });

/**
 * The definitions, kept in memory by one process. Every read states the definitions version it saw
 * (in the same statement as the customer's values); a copy of another version is never used, so
 * a change made by any process or instance shows at once.
 */
export class DefinitionCache {
  #current: DefinitionSet | undefined;

  /** The definitions of exactly `version`, or undefined when the store has moved past it meanwhile. */
  async at(db: DbHandle, version: number): Promise<DefinitionSet | undefined> {
    if (this.#current?.version === version) return this.#current;
    const loaded = await repo.definitionsWithVersion(db);
    const set: DefinitionSet = { version: loaded.version, ordered: Object.freeze(loaded.rows.map((r) => freeze(toDefinition(r)))) };
    if (!this.#current || set.version > this.#current.version) this.#current = set;
    return set.version === version ? set : undefined;
  }
}
