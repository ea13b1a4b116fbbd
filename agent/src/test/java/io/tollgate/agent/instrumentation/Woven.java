package io.tollgate.agent.instrumentation;

import java.io.IOException;
import java.util.List;

/** The classes {@link HookWeaverTest} weaves hooks into: shaped like the clients' methods. */
public final class Woven {

  private Woven() {}

  /**
   * Methods with loops, handlers and frames of their own. Public, and implementing an interface
   * the test's loader defines, so that the woven copy (another class of the same name) is called
   * through it.
   */
  public static class Target implements Calls {

    public Target() {}

    @Override
    public String join(String head, List<String> tail) throws IOException {
      StringBuilder joined = new StringBuilder(head).append(':');
      for (int i = 0; i < tail.size(); i++) {
        try {
          joined.append(i == 0 ? "" : ",").append(tail.get(i));
        } catch (IndexOutOfBoundsException e) {
          throw new IOException(e);
        }
      }
      return joined.toString();
    }

    @Override
    public int count(long first, double second, String third) {
      return (int) (first + second + third.length());
    }

    @Override
    public String risky(int how) {
      if (how == 0) {
        return "plain";
      }
      try {
        if (how == 1) {
          throw new IllegalStateException("caught inside");
        }
      } catch (IllegalStateException e) {
        return "caught";
      }
      throw new IllegalArgumentException("thrown out");
    }

    @Override
    public String toString() {
      return "target";
    }
  }

  /** What the test calls a woven {@link Target} through. */
  public interface Calls {
    String join(String head, List<String> tail) throws IOException;

    int count(long first, double second, String third);

    String risky(int how);
  }

  /** Constructors, one of which returns early. */
  public static class Built {
    private final List<String> parts;

    public Built() {
      this(List.of());
    }

    public Built(List<String> parts) {
      super();
      this.parts = parts;
      WovenHooks.SEEN.add("body " + parts);
      if (parts.isEmpty()) {
        return;
      }
      parts.size();
    }

    @Override
    public String toString() {
      return "built " + parts;
    }
  }
}
