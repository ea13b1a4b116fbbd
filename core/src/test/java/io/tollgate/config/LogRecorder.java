package io.tollgate.config;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * The lines one class logs through {@code System.Logger}, which goes to {@code java.util.logging}
 * in these tests, formatted as a log file would show them (parameters filled in, stack traces
 * appended), for as long as it is open.
 */
public final class LogRecorder extends Handler implements AutoCloseable {

  private final Logger logger; // held: java.util.logging keeps loggers only weakly
  private final Level previousLevel;
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final SimpleFormatter formatter = new SimpleFormatter();

  private LogRecorder(String source) {
    logger = Logger.getLogger(source);
    previousLevel = logger.getLevel();
    logger.setLevel(Level.ALL);
    setLevel(Level.ALL);
    logger.addHandler(this);
  }

  public static LogRecorder of(Class<?> source) {
    return new LogRecorder(source.getName());
  }

  /** The lines of the logger named {@code source} (a class this package cannot see). */
  public static LogRecorder of(String source) {
    return new LogRecorder(source);
  }

  /** Every line so far, each with its level and, for a logged exception, its stack trace. */
  public List<String> lines() {
    return List.copyOf(lines);
  }

  /** The lines at WARNING or above, message only. */
  public List<String> warnings() {
    return lines.stream().filter(line -> line.startsWith("WARNING") || line.startsWith("SEVERE"))
        .map(line -> line.substring(line.indexOf(' ') + 1).lines().findFirst().orElse(""))
        .toList();
  }

  @Override
  public void publish(LogRecord record) {
    String thrown = "";
    if (record.getThrown() != null) {
      java.io.StringWriter trace = new java.io.StringWriter();
      record.getThrown().printStackTrace(new java.io.PrintWriter(trace));
      thrown = "\n" + trace;
    }
    lines.add(record.getLevel() + " " + formatter.formatMessage(record) + thrown);
  }

  @Override
  public void flush() {}

  @Override
  public void close() {
    logger.removeHandler(this);
    logger.setLevel(previousLevel);
  }
}
