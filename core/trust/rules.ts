/**
 * Every number behind `trust`: confidence, independence and disputes. The
 * one place to change them; docs/trust.md documents each rule with
 * these values, and the views, the worker and search ranking all read them
 * from here.
 */
export const TRUST_RULES = {
  /** z of the Wilson score lower bound (1.96: a 95 % two-sided interval). */
  wilsonZ: 1.96,
  /** A `partially_worked` confirmer counts as this much of a success. */
  partialCredit: 0.5,
  /** Confidence halves for every this many days since the last independent `worked`. */
  halfLifeDays: 180,
  /**
   * Identities admitted from one client address (an IPv4 address, or an IPv6
   * /64) less than this many seconds after the previous one from that address
   * join its group, and a group counts as one confirmer.
   */
  admissionWindowSeconds: 3600,
  /** An IPv6 client is keyed by this many leading bits: one host usually holds a whole /64. */
  ipv6PrefixBits: 64,
  /** A record is disputed when at least this many independent confirmers bring counter-evidence… */
  disputeMinIndependent: 2,
  /** …and they are at least this share of those who either support (worked) or contradict it. */
  disputeMinShare: 0.5,
  /** A disputed solution's confidence is multiplied by this. */
  disputedFactor: 0.5,
  /** How many latest counter-evidence notes a projection shows. */
  latestEvidence: 3,
  /** Per revision, the outcome breakdown shows at most this many environment keys… */
  environmentKeys: 20,
  /** …and this many values of each (the most reported first). */
  environmentValuesPerKey: 10,
  /** Confidence is rounded to this many decimals, so projections stay byte-stable. */
  confidenceDecimals: 3,
} as const;

/** Feedback kinds that count as counter-evidence (SPEC scopes `report_failure`, `report_outdated`). */
export const COUNTER_FEEDBACK_KINDS = ['report_failure', 'report_outdated'] as const;
export type CounterFeedbackKind = (typeof COUNTER_FEEDBACK_KINDS)[number];

export type TrustRules = typeof TRUST_RULES;
