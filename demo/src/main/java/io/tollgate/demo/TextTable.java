package io.tollgate.demo;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table with right-aligned numbers, for the console. */
final class TextTable {

  private final List<String[]> rows = new ArrayList<>();

  TextTable(String... header) {
    rows.add(header);
  }

  TextTable row(Object... cells) {
    String[] text = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      text[i] = String.valueOf(cells[i]);
    }
    rows.add(text);
    return this;
  }

  String render() {
    int columns = rows.get(0).length;
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (int r = 0; r < rows.size(); r++) {
      String[] row = rows.get(r);
      for (int i = 0; i < columns; i++) {
        String cell = row[i];
        String padding = " ".repeat(widths[i] - cell.length());
        out.append(i == 0 ? "  " : "  ").append(i == 0 ? cell + padding : padding + cell);
      }
      out.append('\n');
      if (r == 0) {
        int total = 0;
        for (int w : widths) {
          total += w + 2;
        }
        out.append("  ").append("-".repeat(total - 2)).append('\n');
      }
    }
    return out.toString();
  }
}
