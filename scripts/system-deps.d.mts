// Types of system-deps.mjs (plain JavaScript so that it runs before anything is installed).
export interface PackageGroup {
  readonly why: string;
  readonly packages: readonly string[];
}
export type SudoKind = 'passwordless' | 'password' | 'none';
export type OsRelease = Readonly<Record<string, string>>;
export interface Facts {
  readonly missing: readonly string[] | null;
  readonly os: OsRelease | null;
  readonly platform?: string;
  readonly uid: number | null;
  readonly sudo: SudoKind;
}
export type Plan =
  | { readonly kind: 'ready' }
  | {
      readonly kind: 'install';
      readonly sudo: boolean;
      readonly steps: readonly (readonly string[])[];
      readonly groups: readonly PackageGroup[];
    }
  | { readonly kind: 'stop'; readonly command: string; readonly message: string };

export const SYSTEM_PACKAGES: readonly PackageGroup[];
export const PACKAGE_NAMES: readonly string[];
export const SKIP_VARIABLE: string;
export function parseOsRelease(text: string): Record<string, string>;
export function isDebianLike(os: OsRelease | null): boolean;
export function missingFrom(dpkgOutput: string, wanted?: readonly string[]): string[];
export function groupsOf(packages: readonly string[]): PackageGroup[];
export function manualCommand(packages: readonly string[], sudo: SudoKind): string;
export function planSystemDeps(facts: Facts): Plan;
export function missingPackages(): string[] | null;
