package mini;

/** Retention periods such as "30d" or "12h", as used in the backup settings. */
public final class Durations {
    private Durations() {}

    public static long toMillis(String spec) {
        if (spec == null || spec.length() < 2) {
            throw new IllegalArgumentException("expected a number and a unit: " + spec);
        }
        int amount = Integer.parseInt(spec.substring(0, spec.length() - 1));
        if (amount < 0) {
            throw new IllegalArgumentException("negative duration: " + spec);
        }
        switch (spec.charAt(spec.length() - 1)) {
            case 'd':
                return amount * 24 * 60 * 60 * 1000;
            case 'h':
                return amount * 60 * 60 * 1000;
            case 'm':
                return amount * 60 * 1000;
            case 's':
                return amount * 1000;
            default:
                throw new IllegalArgumentException("unknown unit in " + spec);
        }
    }

    /** True when something made at {@code createdMillis} is past its retention at {@code nowMillis}. */
    public static boolean expired(long createdMillis, String retention, long nowMillis) {
        return nowMillis - createdMillis >= toMillis(retention);
    }
}
