package io.tollgate.agent.it.app;

import com.sun.tools.attach.VirtualMachine;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * An app that is already running OkHttp when the agent is attached to it (the way
 * {@code jcmd}/attach tools do): its OkHttp classes are loaded and in use before the agent arrives.
 *
 * <pre>LateAttachApp AGENT_JAR AGENT_ARGUMENTS URL JSON</pre>
 *
 * Prints one call line for a call on a client built before the attach, then for two calls on a
 * client built after it.
 */
public final class LateAttachApp {

  private LateAttachApp() {}

  public static void main(String[] args) throws Exception {
    System.out.println("app started");
    OkHttpClient before = new OkHttpClient();
    System.out.println("call 1 before " + call(before, args[2], args[3]));

    VirtualMachine self = VirtualMachine.attach(String.valueOf(ProcessHandle.current().pid()));
    try {
      self.loadAgent(args[0], args[1]);
    } finally {
      self.detach();
    }

    OkHttpClient after = new OkHttpClient.Builder().build();
    System.out.println("call 2 after " + call(after, args[2], args[3]));
    System.out.println("call 3 after " + call(after, args[2], args[3]));
    System.out.println("call 4 before " + call(before, args[2], args[3]));
    System.out.println("app done");
  }

  private static String call(OkHttpClient client, String url, String json) throws Exception {
    Request request = new Request.Builder().url(url)
        .post(RequestBody.create(MediaType.parse("application/json"), json)).build();
    try (Response response = client.newCall(request).execute()) {
      return OkHttpApp.describe(response, false);
    }
  }
}
