/**
 * Limits changed at runtime: {@link io.tollgate.overrides.Overrides} keeps a tenant's, a
 * provider's or a model's limit keys in Redis ({@code lua/overrides.lua}) for the whole fleet,
 * with an audit list, and every gate polls them. Uses the configuration (to check what is set) and
 * Redis; the gate uses it.
 */
package io.tollgate.overrides;
