package io.tollgate.llm.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tollgate.llm.TokenCounter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Counts tool (function) definitions the way OpenAI's cookbook does ("How to count tokens with
 * tiktoken", section 7), which matches the API's own count for gpt-4o and gpt-4:
 *
 * <pre>
 *   per function: 7 (o200k) or 10 (cl100k) + tokens("name:description")
 *     if it has properties: 3, and per property 3 + tokens("key:type:description"),
 *       with an enum: -3 + per item 3 + tokens(item)
 *   once, when there are functions: 12
 * </pre>
 *
 * Descriptions lose one trailing full stop. Reads OpenAI chat ({@code function: {...}}), Responses
 * and legacy {@code functions} (flat), and Anthropic ({@code input_schema}) shapes. Schema parts
 * the recipe does not cover (nested objects, items, $defs) are counted as JSON, names and all.
 */
final class ToolCounter {

  private static final int FUNC_INIT_O200K = 7;
  private static final int FUNC_INIT_CL100K = 10;
  private static final int PROP_INIT = 3;
  private static final int PROP_KEY = 3;
  private static final int ENUM_INIT = -3;
  private static final int ENUM_ITEM = 3;
  private static final int FUNC_END = 12;

  private static final class Tool {
    String name = "";
    String description = "";
    final List<Property> properties = new ArrayList<>();
  }

  private static final class Property {
    final String key;
    String type = "";
    String description = "";
    List<String> enumItems;

    Property(String key) {
      this.key = key;
    }
  }

  private ToolCounter() {}

  /** Counts the tools array at the parser; returns true when it held at least one tool. */
  static boolean count(JsonParser p, PromptCounter prompt) throws IOException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      p.skipChildren();
      return false;
    }
    TokenCounter tokenizer = prompt.tokenizer();
    int funcInit = TokenCounter.O200K_BASE.equals(tokenizer.encodingName()) ? FUNC_INIT_O200K : FUNC_INIT_CL100K;
    int tools = 0;
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (p.currentToken() != JsonToken.START_OBJECT) {
        p.skipChildren();
        continue;
      }
      Tool tool = new Tool();
      readTool(p, tool, prompt);
      tools++;
      prompt.overhead(funcInit);
      prompt.text(tool.name + ":" + withoutFullStop(tool.description));
      if (!tool.properties.isEmpty()) {
        prompt.overhead(PROP_INIT);
        for (Property property : tool.properties) {
          prompt.overhead(PROP_KEY);
          if (property.enumItems != null) {
            prompt.overhead(ENUM_INIT);
            for (String item : property.enumItems) {
              prompt.overhead(ENUM_ITEM);
              prompt.text(item);
            }
          }
          prompt.text(property.key + ":" + property.type + ":" + withoutFullStop(property.description));
        }
      }
    }
    if (tools > 0) {
      prompt.overhead(FUNC_END);
    }
    return tools > 0;
  }

  private static void readTool(JsonParser p, Tool tool, PromptCounter prompt) throws IOException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      JsonToken value = p.nextToken();
      switch (key) {
        case "function" -> {
          if (value == JsonToken.START_OBJECT) {
            readTool(p, tool, prompt);
          } else {
            p.skipChildren();
          }
        }
        case "name" -> tool.name = text(p, value, tool.name);
        case "description" -> tool.description = text(p, value, tool.description);
        case "parameters", "input_schema" -> readSchema(p, tool, prompt);
        default -> p.skipChildren(); // type, strict, cache_control, server-tool settings
      }
    }
  }

  private static void readSchema(JsonParser p, Tool tool, PromptCounter prompt) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      p.skipChildren();
      return;
    }
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      JsonToken value = p.nextToken();
      switch (key) {
        case "properties" -> {
          if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            break;
          }
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            Property property = new Property(p.currentName());
            p.nextToken();
            readProperty(p, property, prompt);
            tool.properties.add(property);
          }
        }
        case "type", "required", "additionalProperties", "strict", "$schema" -> p.skipChildren();
        default -> asJson(key, p, prompt);
      }
    }
  }

  private static void readProperty(JsonParser p, Property property, PromptCounter prompt) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      p.skipChildren();
      return;
    }
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      JsonToken value = p.nextToken();
      switch (key) {
        case "type" -> property.type = value == JsonToken.START_ARRAY ? joined(p) : text(p, value, property.type);
        case "description" -> property.description = text(p, value, property.description);
        case "enum" -> property.enumItems = items(p);
        default -> asJson(key, p, prompt);
      }
    }
  }

  /** A part the recipe does not cover: its names and values, as the model reads JSON. */
  private static void asJson(String key, JsonParser p, PromptCounter prompt) throws IOException {
    prompt.text(key);
    switch (p.currentToken()) {
      case VALUE_STRING -> prompt.currentString(p);
      case START_OBJECT -> {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String inner = p.currentName();
          p.nextToken();
          asJson(inner, p, prompt);
        }
      }
      case START_ARRAY -> {
        while (p.nextToken() != JsonToken.END_ARRAY) {
          if (p.currentToken() == JsonToken.VALUE_STRING) {
            prompt.currentString(p);
          } else if (p.currentToken().isStructStart()) {
            asJson("", p, prompt);
          } else {
            prompt.overhead(1);
          }
        }
      }
      default -> prompt.overhead(1);
    }
  }

  private static String text(JsonParser p, JsonToken value, String otherwise) throws IOException {
    if (value == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    p.skipChildren();
    return otherwise;
  }

  private static String joined(JsonParser p) throws IOException {
    StringBuilder types = new StringBuilder();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (p.currentToken() == JsonToken.VALUE_STRING) {
        types.append(types.length() == 0 ? "" : ",").append(p.getText());
      } else {
        p.skipChildren();
      }
    }
    return types.toString();
  }

  private static List<String> items(JsonParser p) throws IOException {
    List<String> items = new ArrayList<>();
    if (p.currentToken() != JsonToken.START_ARRAY) {
      p.skipChildren();
      return items;
    }
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (p.currentToken().isScalarValue()) {
        items.add(p.getText());
      } else {
        p.skipChildren();
      }
    }
    return items;
  }

  private static String withoutFullStop(String description) {
    return description.endsWith(".") ? description.substring(0, description.length() - 1) : description;
  }
}
