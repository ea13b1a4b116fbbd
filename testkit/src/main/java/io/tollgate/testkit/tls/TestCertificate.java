package io.tollgate.testkit.tls;

import io.tollgate.testkit.redis.internal.ProcessReaper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for {@code 127.0.0.1} and {@code localhost} (or, from {@link
 * #forDnsName(String)}, for another name only), made at test time with the JDK's own {@code
 * keytool}, so that no key is ever checked in and no extra library is needed.
 *
 * <p>It comes in the three forms a TLS test needs: PEM files for a server that reads them ({@code
 * redis-server}'s {@code tls-cert-file}, {@code tls-key-file}, {@code tls-ca-cert-file}); an
 * {@link #socketFactory()} that trusts this certificate only, for the fixtures' own clients; and a
 * PKCS#12 trust store for a JVM that, like an app in production, trusts what {@code
 * javax.net.ssl.trustStore} names ({@link #trustStoreOptions()}). Files live in a private directory
 * deleted by {@link #close()}, or at JVM exit.
 */
public final class TestCertificate implements AutoCloseable {

  private static final String ALIAS = "tollgate-test";
  private static final long KEYTOOL_TIMEOUT_SECONDS = 60;

  private final Path directory;
  private final String password;
  private final SSLSocketFactory socketFactory;

  private TestCertificate(Path directory, String password, SSLSocketFactory socketFactory) {
    this.directory = directory;
    this.password = password;
    this.socketFactory = socketFactory;
  }

  /**
   * Generates a fresh key pair and certificate for {@code 127.0.0.1} and {@code localhost}, valid
   * for a week.
   */
  public static TestCertificate generate() {
    return generate("CN=127.0.0.1", "ip:127.0.0.1,dns:localhost");
  }

  /**
   * As {@link #generate()}, but the certificate names {@code dnsName} only: a client that reaches
   * the server at {@code 127.0.0.1} and checks the host name refuses it.
   */
  public static TestCertificate forDnsName(String dnsName) {
    return generate("CN=" + dnsName, "dns:" + dnsName);
  }

  private static TestCertificate generate(String subject, String subjectAlternativeNames) {
    Path directory = ProcessReaper.createDirectory("tollgate-tls-");
    try {
      String password = Long.toHexString(new SecureRandom().nextLong());
      Path keyStore = directory.resolve("key.p12");
      runKeytool(directory, password, keyStore, subject, subjectAlternativeNames);
      KeyStore keys = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(keyStore)) {
        keys.load(in, password.toCharArray());
      }
      Certificate certificate = keys.getCertificate(ALIAS);
      PrivateKey key = (PrivateKey) keys.getKey(ALIAS, password.toCharArray());
      Files.writeString(directory.resolve("cert.pem"), pem("CERTIFICATE", certificate.getEncoded()));
      Files.writeString(directory.resolve("key.pem"), pem("PRIVATE KEY", key.getEncoded()));

      KeyStore trusted = KeyStore.getInstance("PKCS12");
      trusted.load(null, null);
      trusted.setCertificateEntry(ALIAS, certificate);
      try (OutputStream out = Files.newOutputStream(directory.resolve("trust.p12"))) {
        trusted.store(out, password.toCharArray());
      }
      return new TestCertificate(directory, password, socketFactoryTrusting(trusted));
    } catch (IOException e) {
      ProcessReaper.delete(directory);
      throw new UncheckedIOException("Could not make a test certificate", e);
    } catch (GeneralSecurityException e) {
      ProcessReaper.delete(directory);
      throw new IllegalStateException("Could not make a test certificate", e);
    } catch (RuntimeException e) {
      ProcessReaper.delete(directory);
      throw e;
    }
  }

  /** The certificate, PEM; it is its own CA, so it is also what peers trust. */
  public Path certificateFile() {
    return directory.resolve("cert.pem");
  }

  /** The private key, unencrypted PKCS#8 PEM. */
  public Path privateKeyFile() {
    return directory.resolve("key.pem");
  }

  /** A PKCS#12 trust store holding only the certificate. */
  public Path trustStore() {
    return directory.resolve("trust.p12");
  }

  public String trustStorePassword() {
    return password;
  }

  /** Client sockets that trust this certificate and nothing else. */
  public SSLSocketFactory socketFactory() {
    return socketFactory;
  }

  /**
   * TLS parameters for the fixtures' own clients, which reach the server whatever host the
   * certificate names ({@link #forDnsName(String)}): no host-name check, which {@link
   * #socketFactory()} makes safe by trusting this one certificate. Jedis 8 checks the host name
   * when given no parameters.
   */
  public SSLParameters clientParameters() {
    SSLParameters parameters = new SSLParameters();
    parameters.setEndpointIdentificationAlgorithm(null);
    return parameters;
  }

  /**
   * The JVM options that make {@link #trustStore()} the trust store of a child JVM, whose default
   * {@code SSLContext} then trusts this certificate (and no public CA).
   */
  public List<String> trustStoreOptions() {
    return List.of(
        "-Djavax.net.ssl.trustStore=" + trustStore(),
        "-Djavax.net.ssl.trustStorePassword=" + password,
        "-Djavax.net.ssl.trustStoreType=PKCS12");
  }

  @Override
  public void close() {
    ProcessReaper.delete(directory);
  }

  @Override
  public String toString() {
    return "TestCertificate[" + certificateFile() + "]";
  }

  private static void runKeytool(Path directory, String password, Path keyStore, String subject,
      String subjectAlternativeNames) throws IOException {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Path output = directory.resolve("keytool.txt");
    Process process = new ProcessBuilder(keytool.toString(), "-genkeypair",
        "-alias", ALIAS,
        "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", subject,
        "-ext", "SAN=" + subjectAlternativeNames,
        // A CA as well: redis-server checks its peers (replicas, cluster bus) against this
        // certificate as tls-ca-cert-file.
        "-ext", "BC:c=ca:true",
        "-validity", "7",
        "-keystore", keyStore.toString(), "-storetype", "PKCS12",
        "-storepass", password, "-keypass", password)
        .redirectErrorStream(true)
        .redirectOutput(output.toFile()) // a file, not a pipe: reading it cannot block
        .start();
    try {
      if (!process.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("keytool did not finish in " + KEYTOOL_TIMEOUT_SECONDS + " s");
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while keytool made a test certificate", e);
    }
    if (process.exitValue() != 0) {
      throw new IllegalStateException("keytool failed (exit " + process.exitValue() + "): "
          + Files.readString(output, StandardCharsets.UTF_8));
    }
  }

  private static SSLSocketFactory socketFactoryTrusting(KeyStore trusted)
      throws GeneralSecurityException {
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context.getSocketFactory();
  }

  private static String pem(String type, byte[] der) {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
        .encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }
}
