package io.tollgate.servlet;

import io.tollgate.llm.Headers;
import io.tollgate.llm.SyntheticResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;

/** Writes what the gate answers instead of the app (a refusal) to the servlet response. */
final class AnswerWriter {

  private AnswerWriter() {}

  static void send(HttpServletResponse response, SyntheticResponse answer) throws IOException {
    response.setStatus(answer.status());
    for (Headers.Field field : answer.headers().fields()) {
      if (field.name().equalsIgnoreCase("content-type")) {
        response.setContentType(field.value());
      } else {
        response.addHeader(field.name(), field.value());
      }
    }
    byte[] body = answer.body();
    response.setContentLength(body.length);
    try (OutputStream out = response.getOutputStream()) {
      out.write(body);
    }
  }
}
