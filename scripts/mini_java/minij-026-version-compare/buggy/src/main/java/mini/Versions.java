package mini;

import java.util.List;

/** Release versions such as "2.14.1". */
public final class Versions {
    private Versions() {}

    /** Negative, zero or positive as {@code a} is older than, the same as or newer than {@code b}. */
    public static int compare(String a, String b) {
        String[] pa = a.trim().split(".");
        String[] pb = b.trim().split(".");
        int n = Math.max(pa.length, pb.length);
        for (int i = 0; i < n; i++) {
            int x = i < pa.length ? Integer.parseInt(pa[i]) : 0;
            int y = i < pb.length ? Integer.parseInt(pb[i]) : 0;
            if (x != y) {
                return Integer.compare(x, y);
            }
        }
        return 0;
    }

    /** The newest of {@code versions} (the first of equal ones). */
    public static String newest(List<String> versions) {
        String best = null;
        for (String v : versions) {
            if (best == null || compare(v, best) > 0) {
                best = v;
            }
        }
        return best;
    }
}
