/**
 * The Apache HttpClient 5 side of the agent: code that names {@code org.apache.hc} types. These
 * classes are defined in the class loader that loaded HttpClient 5 (listed in
 * {@link io.tollgate.agent.apache5.ApacheHttpClient5InstrumentationModule#helperClassNames()}),
 * never loaded through the agent's own loader: nothing outside this package may name them, except
 * the advice inlined into HttpClient's classes. Compiled against HttpClient 5.1, whose API
 * the later 5.x releases keep.
 */
package io.tollgate.agent.apache5.helpers;
