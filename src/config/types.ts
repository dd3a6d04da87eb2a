/** Normalized config types: what the resolver consumes after validation and defaults. */

/** A `context` layer on an agent or a flow step. It is declared when `paths` is set. */
export interface ContextLayer {
  readonly paths?: readonly string[];
  readonly mode?: string;
  readonly nested?: boolean;
}

/** One agent. Keys other than `context` pass through for the embedder. */
export interface AgentConfig {
  readonly context?: ContextLayer;
  readonly [key: string]: unknown;
}

/** Limits of progressive disclosure (DESIGN §3). */
export interface ContextDiscoveryConfig {
  readonly enabled: boolean;
  readonly maxFiles: number;
  readonly maxDepth: number;
  readonly maxFileBytes: number;
  readonly maxSessionBytes: number;
  readonly maxManifestBytes: number;
}

/** A validated config with every default applied. */
export interface Config {
  readonly contextPaths: readonly string[];
  readonly agents: Readonly<Record<string, AgentConfig>>;
  readonly contextDiscovery: ContextDiscoveryConfig;
  readonly flows: readonly string[];
}

/** A flow step after `extends` was applied. Keys other than these pass through. */
export interface FlowStep {
  readonly id: string;
  readonly agent?: string;
  readonly context?: ContextLayer;
  readonly [key: string]: unknown;
}

/** A flow loaded from a YAML file. */
export interface Flow {
  readonly id: string;
  /** Absolute path of the flow file. */
  readonly file: string;
  readonly steps: readonly FlowStep[];
}
