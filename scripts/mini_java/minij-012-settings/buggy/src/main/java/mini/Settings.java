package mini;

import java.util.HashMap;
import java.util.Map;

/** Settings read from lines of {@code key = value}; {@code #} starts a comment line. */
public final class Settings {
    private final Map<String, String> values;

    public Settings(Map<String, String> values) {
        this.values = new HashMap<>(values);
    }

    public static Settings parse(String text) {
        Map<String, String> values = new HashMap<>();
        for (String line : text.split("\n")) {
            String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            int eq = trimmed.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("expected key = value: " + trimmed);
            }
            values.put(trimmed.substring(0, eq).trim(), trimmed.substring(eq + 1).trim());
        }
        return new Settings(values);
    }

    public String get(String key, String fallback) {
        return values.getOrDefault(key, fallback);
    }

    /** The integer under {@code key}, or {@code fallback} when the key is not set. */
    public int getInt(String key, int fallback) {
        String raw = values.get(key);
        try {
            return Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("setting '" + key + "' is not an integer: " + raw, e);
        }
    }
}
