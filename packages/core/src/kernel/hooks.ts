/**
 * What a lower group needs of a group above it in the layering, which it may not import: the lower
 * group declares an entry here by declaration merging (named `<its folder>.<what>`), the upper group
 * fills it in its `ResourceGroup` (`fills`), and each engine reads the entries of its own catalogue.
 * So two engines in one process share nothing, and an engine composed without the filling group
 * says so when the hook is used instead of answering as though the record did not exist.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the groups
export interface Hooks {}

/** The hooks the groups of one catalogue fill. */
export type FilledHooks = Partial<Hooks>

/** Answers a hook of the engine's catalogue; throws when no group of it fills the hook. */
export type HookReader = <K extends keyof Hooks>(name: K) => Hooks[K]

/** The reader over one catalogue's filled hooks. */
export function hookReader(filled: FilledHooks): HookReader {
  return (name) => {
    const hook = filled[name]
    if (hook === undefined) {
      throw new Error(
        `No group of this engine's catalogue fills the hook ${String(name)}: compose the engine with the group that fills it.`,
      )
    }
    return hook as Hooks[typeof name]
  }
}
