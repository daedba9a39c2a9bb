package mini;

import java.util.Locale;

/** Byte counts for people: "512 B", "1.5 KiB", "3.0 MiB". */
public final class HumanSize {
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

    private HumanSize() {}

    public static String format(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative size: " + bytes);
        }
        if (bytes < 1024) {
            return bytes + " B";
        }
        double value = bytes;
        int unit = 0;
        while (value >= 1000 && unit < UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, UNITS[unit]);
    }
}
