import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Capabilities } from './api/capabilities.js';

export const CapabilitiesContext = createContext<Capabilities>({ all: false, admin: false });

/** What the signed-in key may do. */
export const useCapabilities = (): Capabilities => useContext(CapabilitiesContext);
