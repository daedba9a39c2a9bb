package mini;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TreesHiddenTest {
    @Test
    public void emptyTree() {
        assertEquals(0, Trees.depth(null));
        assertEquals(0, Trees.size(null));
        assertEquals(0, Trees.sum(null));
    }

    @Test
    public void onlyARightChild() {
        assertEquals(2, Trees.depth(new TreeNode(1, null, TreeNode.leaf(2))));
    }

    @Test
    public void lopsidedTree() {
        TreeNode chain = new TreeNode(1, null, new TreeNode(2, new TreeNode(3, null, TreeNode.leaf(4)), null));
        TreeNode root = new TreeNode(0, TreeNode.leaf(5), chain);
        assertEquals(5, Trees.depth(root));
        assertEquals(6, Trees.size(root));
        assertEquals(15, Trees.sum(root));
    }

    @Test
    public void fullTree() {
        TreeNode root = new TreeNode(1, new TreeNode(2, TreeNode.leaf(4), TreeNode.leaf(5)),
                new TreeNode(3, TreeNode.leaf(6), TreeNode.leaf(7)));
        assertEquals(3, Trees.depth(root));
        assertEquals(7, Trees.size(root));
    }
}
