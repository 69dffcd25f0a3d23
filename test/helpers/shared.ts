/** Paths to the read-only reference data beside the project (../shared). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url));
export const sharedPath = (rel: string): string => SHARED + rel;
export const readShared = (rel: string): string => readFileSync(sharedPath(rel), 'utf8');
export const readSharedJson = <T>(rel: string): T => JSON.parse(readShared(rel)) as T;
