package mini;

/** Descriptive statistics of a series of measurements. */
public final class Stats {
    private Stats() {}

    /** Arithmetic mean; needs at least one value. */
    public static double mean(double[] xs) {
        if (xs.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        double sum = 0;
        for (double x : xs) {
            sum += x;
        }
        return sum / xs.length;
    }

    /** Sample variance (divides by n - 1); needs at least two values. */
    public static double variance(double[] xs) {
        if (xs.length < 2) {
            throw new IllegalArgumentException("need at least two values");
        }
        double m = mean(xs);
        double squares = 0;
        for (double x : xs) {
            double d = x - m;
            squares = d * d;
        }
        return squares / (xs.length - 1);
    }

    /** Sample standard deviation. */
    public static double stdDev(double[] xs) {
        return Math.sqrt(variance(xs));
    }
}
