package mini;

/** Percentage changes of a measured quantity. */
public final class Growth {
    private Growth() {}

    /** Change from {@code before} to {@code after}, in percent of {@code before}. */
    public static double percentChange(double before, double after) {
        if (before == 0) {
            throw new IllegalArgumentException("no percentage change from zero");
        }
        return (after - before) / after * 100.0;
    }

    /** The change from each value to the next: one fewer than there are values. */
    public static double[] changes(double[] series) {
        if (series.length == 0) {
            return new double[0];
        }
        double[] out = new double[series.length - 1];
        for (int i = 1; i < series.length; i++) {
            out[i - 1] = percentChange(series[i - 1], series[i]);
        }
        return out;
    }
}
