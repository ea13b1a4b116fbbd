/**
 * The Apache HttpClient 4.5 side of the agent: code that names {@code org.apache.http} types.
 * These classes are defined in the class loader that loaded HttpClient 4 (listed in
 * {@link io.tollgate.agent.apache4.ApacheHttpClient4InstrumentationModule#helperClassNames()}),
 * never loaded through the agent's own loader: nothing outside this package may name them, except
 * the advice inlined into HttpClient's classes. Compiled against HttpClient 4.5.13 and
 * HttpCore 4.4.13.
 */
package io.tollgate.agent.apache4.helpers;
