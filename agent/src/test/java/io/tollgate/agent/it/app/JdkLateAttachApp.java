package io.tollgate.agent.it.app;

import com.sun.tools.attach.VirtualMachine;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * An app already using the JDK's {@code HttpClient} when the agent is attached to it: the client's
 * classes are loaded, and the client made before the attach is the one used after it.
 *
 * <pre>JdkLateAttachApp AGENT_JAR AGENT_ARGUMENTS URL JSON</pre>
 *
 * Prints one call line ({@code before}) before the attach, two ({@code after}) after it.
 */
public final class JdkLateAttachApp {

  private JdkLateAttachApp() {}

  public static void main(String[] args) throws Exception {
    System.out.println("app started");
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    System.out.println("call 1 before " + call(client, 1, args[2], args[3]));

    VirtualMachine self = VirtualMachine.attach(String.valueOf(ProcessHandle.current().pid()));
    try {
      self.loadAgent(args[0], args[1]);
    } finally {
      self.detach();
    }

    System.out.println("call 2 after " + call(client, 2, args[2], args[3]));
    System.out.println("call 3 after " + call(client, 3, args[2], args[3]));
    System.out.println("app done");
  }

  private static String call(HttpClient client, int number, String url, String json) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)).build();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    return JdkHttpClientApp.describe(number, response, response.body().getBytes(StandardCharsets.UTF_8));
  }
}
