package mini;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TreesTest {
    @Test
    public void singleNode() {
        assertEquals(1, Trees.depth(TreeNode.leaf(7)));
    }

    @Test
    public void onlyALeftChild() {
        assertEquals(2, Trees.depth(new TreeNode(1, TreeNode.leaf(2), null)));
    }
}
