package mini;

/** Sliding-window sums and moving averages over an array of numbers. */
public final class Windows {
    private Windows() {}

    /**
     * Sum of every run of {@code k} consecutive values, left to right: {@code values.length - k + 1}
     * windows, none when there are fewer than {@code k} values.
     */
    public static double[] windowSums(double[] values, int k) {
        if (k <= 0) {
            throw new IllegalArgumentException("window size must be positive");
        }
        if (values.length < k) {
            return new double[0];
        }
        double[] sums = new double[values.length - k + 1];
        double running = 0;
        for (int i = 0; i < k; i++) {
            running += values[i];
        }
        sums[0] = running;
        for (int i = k; i < values.length; i++) {
            running += values[i] - values[i - k + 1];
            sums[i - k + 1] = running;
        }
        return sums;
    }

    /** Mean of every window of {@code k} consecutive values. */
    public static double[] movingAverage(double[] values, int k) {
        double[] sums = windowSums(values, k);
        for (int i = 0; i < sums.length; i++) {
            sums[i] /= k;
        }
        return sums;
    }
}
