package io.tollgate.agent.it.app;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs {@link OkHttpApp} the way containers and fat-jar launchers do: in a class loader of its own
 * (the system loader its parent) holding the app and its OkHttp, once per OkHttp given, in one JVM.
 *
 * <pre>ChildLoaderLauncher APP_CLASSES LIBS_DIR [LIBS_DIR...] -- APP_ARGS...</pre>
 *
 * With {@code -Dlauncher.isolated=true} the loaders' parent is the platform loader, as in OSGi:
 * nothing on the class path, the agent jar included, is visible from them.
 */
public final class ChildLoaderLauncher {

  private ChildLoaderLauncher() {}

  public static void main(String[] args) throws Exception {
    int split = Arrays.asList(args).indexOf("--");
    File appClasses = new File(args[0]);
    String[] appArgs = Arrays.copyOfRange(args, split + 1, args.length);
    for (String libs : Arrays.copyOfRange(args, 1, split)) {
      List<URL> urls = new ArrayList<>();
      urls.add(appClasses.toURI().toURL());
      for (File jar : new File(libs).listFiles((dir, name) -> name.endsWith(".jar"))) {
        urls.add(jar.toURI().toURL());
      }
      ClassLoader parent = Boolean.getBoolean("launcher.isolated")
          ? ClassLoader.getPlatformClassLoader() : ClassLoader.getSystemClassLoader();
      try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), parent)) {
        Thread.currentThread().setContextClassLoader(loader);
        System.out.println("loader " + new File(libs).getName());
        Class.forName(System.getProperty("launcher.app", "io.tollgate.agent.it.app.OkHttpApp"), true, loader)
            .getMethod("main", String[].class).invoke(null, (Object) appArgs);
      }
    }
  }
}
