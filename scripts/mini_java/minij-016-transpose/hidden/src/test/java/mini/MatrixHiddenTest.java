package mini;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class MatrixHiddenTest {
    @Test
    public void transposeTall() {
        assertArrayEquals(new int[][] {{1, 2, 3}}, Matrix.transpose(new int[][] {{1}, {2}, {3}}));
    }

    @Test
    public void transposeTwiceIsIdentity() {
        int[][] m = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
        assertArrayEquals(m, Matrix.transpose(Matrix.transpose(m)));
    }

    @Test
    public void emptyMatrix() {
        assertEquals(0, Matrix.transpose(new int[0][0]).length);
    }

    @Test
    public void multiplyRectangular() {
        int[][] a = {{1, 2, 3}, {4, 5, 6}};
        int[][] b = {{7, 8}, {9, 10}, {11, 12}};
        assertArrayEquals(new int[][] {{58, 64}, {139, 154}}, Matrix.multiply(a, b));
    }

    @Test
    public void multiplyByColumn() {
        assertArrayEquals(new int[][] {{5}, {11}}, Matrix.multiply(new int[][] {{1, 2}, {3, 4}}, new int[][] {{1}, {2}}));
        assertThrows(IllegalArgumentException.class, () -> Matrix.multiply(new int[][] {{1, 2}}, new int[][] {{1, 2}}));
    }

    @Test
    public void symmetry() {
        assertTrue(Matrix.isSymmetric(new int[][] {{1, 7}, {7, 2}}));
        assertFalse(Matrix.isSymmetric(new int[][] {{1, 7}, {8, 2}}));
    }
}
