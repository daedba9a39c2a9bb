package mini;

import static org.junit.Assert.assertArrayEquals;

import org.junit.Test;

public class MatrixTest {
    @Test
    public void transposeSquare() {
        assertArrayEquals(new int[][] {{1, 3}, {2, 4}}, Matrix.transpose(new int[][] {{1, 2}, {3, 4}}));
    }

    @Test
    public void transposeWide() {
        assertArrayEquals(
                new int[][] {{1, 4}, {2, 5}, {3, 6}}, Matrix.transpose(new int[][] {{1, 2, 3}, {4, 5, 6}}));
    }
}
