package mini;

import java.util.Arrays;

/** Small dense int matrices, stored as arrays of rows. */
public final class Matrix {
    private Matrix() {}

    public static int[][] transpose(int[][] m) {
        int rows = m.length;
        if (rows == 0) {
            return new int[0][0];
        }
        int cols = m[0].length;
        int[][] t = new int[rows][cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                t[j][i] = m[i][j];
            }
        }
        return t;
    }

    public static int[][] multiply(int[][] a, int[][] b) {
        if (a.length == 0 || a[0].length != b.length) {
            throw new IllegalArgumentException("shapes do not match");
        }
        int[][] bt = transpose(b);
        int[][] c = new int[a.length][bt.length];
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < bt.length; j++) {
                int sum = 0;
                for (int k = 0; k < b.length; k++) {
                    sum += a[i][k] * bt[j][k];
                }
                c[i][j] = sum;
            }
        }
        return c;
    }

    public static boolean isSymmetric(int[][] m) {
        return Arrays.deepEquals(m, transpose(m));
    }
}
