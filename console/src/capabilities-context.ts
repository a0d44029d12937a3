import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { NO_CAPABILITIES, type Capabilities } from './api/capabilities.js';

export const CapabilitiesContext = createContext<Capabilities>(NO_CAPABILITIES);

/** What the signed-in key may do. */
export const useCapabilities = (): Capabilities => useContext(CapabilitiesContext);
