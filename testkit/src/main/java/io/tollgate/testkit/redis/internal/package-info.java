/**
 * How the Redis fixtures work: process supervision, port choice, Cluster formation and probing.
 * Not API: public only so that {@code io.tollgate.testkit.redis} can use it; may change freely.
 */
package io.tollgate.testkit.redis.internal;
