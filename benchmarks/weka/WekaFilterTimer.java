// SPDX-License-Identifier: GPL-3.0-or-later
// Times Weka 3.6's supervised Discretize (Fayyad-Irani MDL) over the 10 training/test splits of
// one cross-validation run (Random(r), stratified): fit on the training rows, transform both.
// Run after run in one JVM; run 1 is a fresh process, later runs the warmed-up steady state.
// Usage: java -cp weka.jar:DIR WekaFilterTimer RUNS FOLDS file.arff
import weka.core.Instances;
import weka.filters.Filter;
import weka.filters.supervised.attribute.Discretize;
import java.io.BufferedReader;
import java.io.FileReader;
import java.util.Random;

public class WekaFilterTimer {
    public static void main(String[] args) throws Exception {
        int runs = Integer.parseInt(args[0]);
        int folds = Integer.parseInt(args[1]);
        Instances data = new Instances(new BufferedReader(new FileReader(args[2])));
        data.setClassIndex(data.numAttributes() - 1);
        System.out.println("run,seconds");
        for (int r = 1; r <= runs; r++) {
            Instances copy = new Instances(data);
            copy.randomize(new Random(r));
            copy.stratify(folds);
            long t0 = System.nanoTime();
            for (int f = 0; f < folds; f++) {
                Instances train = copy.trainCV(folds, f);
                Instances test = copy.testCV(folds, f);
                Discretize d = new Discretize();
                d.setInputFormat(train);
                Filter.useFilter(train, d);
                Filter.useFilter(test, d);
            }
            System.out.println(r + "," + (System.nanoTime() - t0) / 1e9);
        }
    }
}
